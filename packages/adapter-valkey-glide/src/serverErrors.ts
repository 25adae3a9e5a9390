/**
 * The server's error codes behind the kinds GLIDE's core (redis-rs) names them by. GLIDE reports
 * `ERR boom` as `An error was signalled by the server: - ResponseError: boom`, and an error code
 * it has no kind for (`WRONGTYPE x`, `BUSY x`) as `WRONGTYPE: x`.
 */
const CODES: Readonly<Record<string, string>> = {
  ResponseError: 'ERR',
  NoScriptError: 'NOSCRIPT',
  PermissionDenied: 'NOPERM',
  CrossSlot: 'CROSSSLOT',
  BusyLoadingError: 'LOADING',
  ReadOnly: 'READONLY',
  ExecAbortError: 'EXECABORT',
  TryAgain: 'TRYAGAIN',
  ClusterDown: 'CLUSTERDOWN',
  MasterDown: 'MASTERDOWN',
  Moved: 'MOVED',
  Ask: 'ASK',
  NotBusy: 'NOTBUSY',
  NoValidReplica: 'NOREPLICAS',
  AuthenticationFailed: 'WRONGPASS',
  TypeError: 'WRONGTYPE',
};

const SIGNALLED = /^An error was signalled by the server: - (\w+): ?([\s\S]*)$/;
const CODED = /^([A-Z][A-Z_]*): ([\s\S]*)$/;

/**
 * The error a script or command failed with, with the message the server sent (`NOSCRIPT ...`,
 * `NOPERM ...`, `ERR ...`) as the other adapters report it: core's script runner falls back to
 * EVAL on `NOSCRIPT`, and tells a refused script from an unreachable server by the code. Only the
 * server's own replies (GLIDE's `RequestError`) are rewritten, keeping GLIDE's error as the
 * `cause`; a connection error, timeout or closed client is returned unchanged.
 */
export function serverError(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== 'RequestError') return error;
  const signalled = SIGNALLED.exec(error.message);
  if (signalled) {
    const [, kind = '', detail = ''] = signalled;
    return new Error(`${CODES[kind] ?? kind.toUpperCase()} ${detail}`, { cause: error });
  }
  const coded = CODED.exec(error.message);
  if (coded) return new Error(`${coded[1]} ${coded[2]}`, { cause: error });
  return error;
}

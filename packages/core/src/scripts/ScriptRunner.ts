import { LockError, RedisUnavailableError } from '../errors/LockError.js';
import { commandsCalledBy, permissionDenied } from '../errors/PermissionDeniedError.js';
import type { Executor, ScriptArgument } from '../executor/Executor.js';
import { LoadedScripts } from './LoadedScripts.js';
import type { Script } from './Script.js';

// Server replies that mean the script or its data is wrong, not that Redis is unreachable.
const REJECTION = /^(ERR|WRONGTYPE|CROSSSLOT|NOPERM|NOSCRIPT)\b/;
// What request-deadline.lua raises when a request reaches Redis after its deadline.
const REFUSED_AS_LATE = /\bDEADBOLT_LATE (\d+) (\d+)/;

/**
 * Runs registered scripts through an executor: in full (EVAL) until the server is known to hold a
 * script (the per-route bookkeeping is in `LoadedScripts.ts`), then by digest (EVALSHA), falling
 * back to EVAL when the server answers NOSCRIPT (after a restart or `SCRIPT FLUSH`); every call
 * bounded by `commandTimeout`.
 */
export class ScriptRunner {
  readonly #executor: Executor;
  readonly #commandTimeout: number;
  readonly #loaded: LoadedScripts;
  readonly #onRefusedAsLate: (key: string) => void;

  /**
   * @param onRefusedAsLate - told when Redis refused a request as past its deadline, with the
   *   request's first key: the client's estimate of the server's clock may be off
   */
  constructor(executor: Executor, commandTimeout: number, onRefusedAsLate: (key: string) => void = () => undefined) {
    this.#executor = executor;
    this.#commandTimeout = commandTimeout;
    this.#loaded = new LoadedScripts(executor.isCluster);
    this.#onRefusedAsLate = onRefusedAsLate;
  }

  /**
   * Runs `script`. Rejects with {@link RedisUnavailableError} when Redis cannot be reached or does
   * not answer within `commandTimeout`, or refused the request as past its deadline (a copy of it
   * may have run before: the outcome is unknown either way), and with {@link LockError} when Redis
   * rejects the script.
   *
   * A call that timed out may still run later (drivers queue commands while disconnected); its
   * reply then goes to `onLateReply`, so that a caller can undo an acquisition nobody waits for.
   */
  run(
    script: Script,
    keys: readonly string[],
    args: readonly ScriptArgument[],
    onLateReply?: (reply: unknown) => void,
  ): Promise<unknown> {
    // On the hot path of every lock call: plain callbacks instead of an async wrapper, so a reply
    // settles the caller's promise without extra promise hops.
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(
          new RedisUnavailableError(`Redis did not answer ${script.name} within ${this.#commandTimeout} ms`, {
            lockName: keys[0],
          }),
        );
      }, this.#commandTimeout);
      const answered = (reply: unknown) => {
        clearTimeout(timer);
        this.#loaded.set(script.sha, keys[0], true);
        if (timedOut) onLateReply?.(reply);
        else resolve(reply);
      };
      const failed = (error: unknown) => {
        clearTimeout(timer);
        const late = REFUSED_AS_LATE.exec(messageOf(error));
        if (late !== null) this.#onRefusedAsLate(keys[0] ?? '');
        if (timedOut) return;
        if (late === null) reject(classify(error, script, keys));
        else reject(refusedAsLate(script, keys, Number(late[1]), Number(late[2]), error));
      };
      const inFull = () => void send(() => this.#executor.eval(script.source, keys, args)).then(answered, failed);
      const missing = (error: unknown) => {
        if (!messageOf(error).startsWith('NOSCRIPT')) return failed(error);
        this.#loaded.set(script.sha, keys[0], false);
        inFull();
      };
      if (this.#loaded.has(script.sha, keys[0]))
        void send(() => this.#executor.evalsha(script.sha, keys, args)).then(answered, missing);
      else inFull();
    });
  }
}

/** Runs a driver call; a driver that throws instead of rejecting is turned into a rejection. */
function send(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error);
  }
}

function refusedAsLate(
  script: Script,
  keys: readonly string[],
  at: number,
  deadline: number,
  cause: unknown,
): RedisUnavailableError {
  const message = `${script.name} reached Redis ${at - deadline} ms after its deadline and was refused; a copy of it may have run before, so its outcome is unknown`;
  return new RedisUnavailableError(message, { lockName: keys[0], cause });
}

function classify(error: unknown, script: Script, keys: readonly string[]): LockError {
  if (error instanceof LockError) return error;
  const lockName = keys[0];
  // An ACL refusal says which permission is missing, so that it is not mistaken for a bug.
  const denied = permissionDenied(error, {
    operation: `script ${script.name}`,
    keys,
    commands: commandsCalledBy(script.source),
    lockName,
  });
  if (denied !== undefined) return denied;
  const message = messageOf(error);
  if (REJECTION.test(message))
    return new LockError(`Redis rejected ${script.name}: ${message}`, { lockName, cause: error });
  return new RedisUnavailableError(`Redis unavailable during ${script.name}: ${message}`, { lockName, cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a `deadbolt` command failed, as a machine-readable code: the bin turns each into one line
 * on stderr and an exit code ({@link EXIT_CODES}), and scripts using the programmatic API can
 * branch on it.
 *
 * - `usage`: bad arguments or options, or a file an option names that cannot be read
 * - `bad-url`: the URL (`--url` or `REDIS_URL`) is not a `redis://` or `rediss://` URL
 * - `unreachable`: no connection to the server could be made (a TLS failure included), or it was
 *   lost
 * - `no-permission`: the server's ACL refused a command (NOPERM)
 * - `auth`: the server refused the credentials
 * - `not-a-lock`: the key exists but is not a lock in Redisson's layout
 * - `not-found`: nobody holds the lock and nobody waits for it; for `unlock`, nobody holds it
 * - `changed`: a force-unlock found the lock changed since it was read, and deleted nothing
 * - `not-confirmed`: a force-unlock was not confirmed
 * - `interrupted`: the user interrupted the command (Ctrl-C)
 * - `redis`: any other error reply
 */
export type CliErrorCode =
  | 'usage'
  | 'bad-url'
  | 'unreachable'
  | 'no-permission'
  | 'auth'
  | 'not-a-lock'
  | 'not-found'
  | 'changed'
  | 'not-confirmed'
  | 'interrupted'
  | 'redis';

/**
 * The process exit code of each {@link CliErrorCode}; 0 is success. Codes without an exit code of
 * their own exit with 1. 130 for an interruption is what a shell reports for a process that
 * SIGINT ended (128 + 2).
 */
export const EXIT_CODES: Readonly<Record<CliErrorCode, number>> = {
  redis: 1,
  'not-a-lock': 1,
  'not-confirmed': 1,
  usage: 2,
  'bad-url': 2,
  'not-found': 3,
  auth: 4,
  'no-permission': 5,
  unreachable: 6,
  changed: 7,
  interrupted: 130,
};

/** An error of the `deadbolt` command or its programmatic API, with a one-line message. */
export class CliError extends Error {
  /** What went wrong; see {@link CliErrorCode}. */
  readonly code: CliErrorCode;

  /**
   * @param code - what went wrong
   * @param message - one line for a person at a terminal
   * @param options - the underlying error, if any
   */
  constructor(code: CliErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliError';
    this.code = code;
  }

  /** The process exit code for this error: see {@link EXIT_CODES}. */
  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/**
 * Turns what a Redis command threw into a {@link CliError}: ACL refusals and lost connections
 * get their own codes, so that the message says what to fix rather than echoing a driver's text.
 */
export function toCliError(error: unknown, what: string): CliError {
  if (error instanceof CliError) return error;
  // A command refused inside MULTI fails EXEC with EXECABORT; the refusal itself is the news.
  const [first] = (error as { previousErrors?: unknown[] } | undefined)?.previousErrors ?? [];
  if (first !== undefined) return toCliError(first, what);
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? message;
  if (firstLine.startsWith('NOPERM')) {
    return new CliError('no-permission', `no permission to ${what}: ${firstLine}`, { cause: error });
  }
  if (/^(WRONGPASS|NOAUTH)/.test(firstLine))
    return new CliError('auth', `authentication failed: ${firstLine}`, { cause: error });
  if (
    /Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|max retries|Stream isn't writeable/i.test(
      firstLine,
    )
  ) {
    return new CliError('unreachable', `lost the connection while trying to ${what}: ${firstLine}`, { cause: error });
  }
  return new CliError('redis', `failed to ${what}: ${firstLine}`, { cause: error });
}

/**
 * Why a `deadbolt` command failed, as a machine-readable code: the bin turns each into one line
 * on stderr and an exit code, and scripts using the programmatic API can branch on it.
 *
 * - `usage`: bad arguments or options (exit code 2)
 * - `bad-url`: the `--url` is not a `redis://` or `rediss://` URL
 * - `unreachable`: no connection to the server could be made
 * - `no-permission`: the server's ACL refused a command (NOPERM)
 * - `auth`: the server refused the credentials
 * - `not-a-lock`: the key exists but is not a lock in Redisson's layout
 * - `not-found`: nobody holds the lock and nobody waits for it; or, for a force-unlock, the lock
 *   changed between the read and the unlock, and nothing was deleted
 * - `not-confirmed`: a force-unlock was not confirmed
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
  | 'not-confirmed'
  | 'redis';

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

  /** The process exit code for this error: 2 for a usage error, 1 for everything else. */
  get exitCode(): number {
    return this.code === 'usage' ? 2 : 1;
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

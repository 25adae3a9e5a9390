import { LockError } from './LockError.js';

type MissingPermission = 'command' | 'key' | 'channel';

/**
 * Redis refused an operation because the connection's ACL user lacks a permission: a command
 * (`+evalsha`, `+publish`, `+info`, ...), a key pattern (`~...`) or a channel pattern (`&...`).
 * `missing` says which kind, and the message names what was refused as precisely as the server's
 * reply allows. The guide "Deployments" (its ACL section) gives the exact rule per lock kind. The
 * driver's error is the `cause`. Nothing was changed by the refused call.
 */
export class PermissionDeniedError extends LockError {
  /** The kind of permission the user lacks: a command, a key pattern or a channel pattern. */
  readonly missing: 'command' | 'key' | 'channel';

  /**
   * @param missing - the kind of permission the user lacks
   * @param message - what was refused
   */
  constructor(
    missing: 'command' | 'key' | 'channel',
    message: string,
    options: { lockName?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, options);
    this.missing = missing;
  }
}

/** What was being done when Redis refused it, for the error's message. */
export interface RefusedOperation {
  /** E.g. `script core/lock-acquire` or `SUBSCRIBE redisson_lock__channel:{a}`. */
  readonly operation: string;
  /** The keys the operation named, if any. */
  readonly keys?: readonly string[];
  /** The channel it subscribed or published to, when known. */
  readonly channel?: string;
  /** The commands a script calls by name, to list when the server does not say which it refused. */
  readonly commands?: readonly string[];
  readonly lockName?: string | undefined;
}

// Redis answers a command refused outright with NOPERM, and a command a script calls with ERR:
// `ERR The user executing the script can't ...` on 7.0, `ERR ACL failure in script: ...` from 7.2
// (Redis 8, Valkey).
const REFUSED_COMMAND = /no permissions to run the '([^']+)' command/i;
const REFUSED_IN_SCRIPT = /user executing the script can't|ACL failure in script|NOPERM/i;

/**
 * A {@link PermissionDeniedError} for a server reply that says the ACL user lacks a permission
 * (`NOPERM ...`, or from inside a script Redis 7.0's `ERR The user executing the script can't ...`
 * and Redis 7.2's and Valkey's `ERR ACL failure in script: ...`); `undefined` for any other error.
 */
export function permissionDenied(error: unknown, refused: RefusedOperation): PermissionDeniedError | undefined {
  const reply = error instanceof Error ? error.message : String(error);
  if (!REFUSED_IN_SCRIPT.test(reply)) return undefined;
  const { missing, what } = describe(reply, refused);
  const message = `Redis refused ${refused.operation}: the ACL user has no permission to ${what} (${reply.trim()})`;
  return new PermissionDeniedError(missing, message, { lockName: refused.lockName, cause: error });
}

function describe(reply: string, refused: RefusedOperation): { missing: MissingPermission; what: string } {
  const command = REFUSED_COMMAND.exec(reply)?.[1];
  if (command !== undefined) return { missing: 'command', what: `run the command '${command.toLowerCase()}'` };
  if (/channel/i.test(reply)) {
    return {
      missing: 'channel',
      what: refused.channel === undefined ? 'use the channel it publishes to' : `use the channel ${refused.channel}`,
    };
  }
  if (/key/i.test(reply)) {
    const keys = refused.keys ?? [];
    return {
      missing: 'key',
      what:
        keys.length === 0
          ? 'access a key it uses'
          : `access one of the keys ${keys.join(', ')} (or a key derived from them)`,
    };
  }
  const commands = refused.commands ?? [];
  return {
    missing: 'command',
    what: commands.length === 0 ? 'run a command it calls' : `run one of the commands it calls: ${commands.join(', ')}`,
  };
}

/** The commands a script's source calls by a literal name, lower-cased and sorted, for messages. */
export function commandsCalledBy(source: string): string[] {
  const names = [...source.matchAll(/redis\.p?call\(\s*['"]([A-Za-z]+)['"]/g)].map((match) =>
    (match[1] ?? '').toLowerCase(),
  );
  // A script that calls a command passed in ARGV does so to publish (PUBLISH or SPUBLISH).
  if (/redis\.p?call\(\s*[A-Za-z_]/.test(source)) names.push('publish or spublish');
  return [...new Set(names)].sort();
}

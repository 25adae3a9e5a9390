import { LockError, RedisUnavailableError } from '../errors/LockError.js';
import { commandsCalledBy, permissionDenied } from '../errors/PermissionDeniedError.js';
import type { Executor, ScriptArgument } from '../executor/Executor.js';
import { LoadedScripts } from './LoadedScripts.js';
import type { Script } from './Script.js';

// Server replies that mean the script or its data is wrong, not that Redis is unreachable.
const REJECTION = /^(ERR|WRONGTYPE|CROSSSLOT|NOPERM|NOSCRIPT)\b/;

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

  constructor(executor: Executor, commandTimeout: number) {
    this.#executor = executor;
    this.#commandTimeout = commandTimeout;
    this.#loaded = new LoadedScripts(executor.isCluster);
  }

  /**
   * Runs `script`. Rejects with {@link RedisUnavailableError} when Redis cannot be reached or does
   * not answer within `commandTimeout`, and with {@link LockError} when Redis rejects the script.
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
        reject(new RedisUnavailableError(`Redis did not answer ${script.name} within ${this.#commandTimeout} ms`, { lockName: keys[0] }));
      }, this.#commandTimeout);
      const answered = (reply: unknown) => {
        clearTimeout(timer);
        this.#loaded.set(script.sha, keys[0], true);
        if (timedOut) onLateReply?.(reply);
        else resolve(reply);
      };
      const failed = (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) reject(classify(error, script, keys));
      };
      const inFull = () => send(() => this.#executor.eval(script.source, keys, args)).then(answered, failed);
      const missing = (error: unknown) => {
        if (!messageOf(error).startsWith('NOSCRIPT')) return failed(error);
        this.#loaded.set(script.sha, keys[0], false);
        inFull();
      };
      if (this.#loaded.has(script.sha, keys[0])) send(() => this.#executor.evalsha(script.sha, keys, args)).then(answered, missing);
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

function classify(error: unknown, script: Script, keys: readonly string[]): LockError {
  if (error instanceof LockError) return error;
  const lockName = keys[0];
  // An ACL refusal says which permission is missing, so that it is not mistaken for a bug.
  const denied = permissionDenied(error, { operation: `script ${script.name}`, keys, commands: commandsCalledBy(script.source), lockName });
  if (denied !== undefined) return denied;
  const message = messageOf(error);
  if (REJECTION.test(message)) return new LockError(`Redis rejected ${script.name}: ${message}`, { lockName, cause: error });
  return new RedisUnavailableError(`Redis unavailable during ${script.name}: ${message}`, { lockName, cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

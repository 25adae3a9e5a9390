import { LockError, RedisUnavailableError } from '../errors/LockError.js';
import type { Executor, ScriptArgument } from '../executor/Executor.js';
import type { Script } from './Script.js';

// Server replies that mean the script or its data is wrong, not that Redis is unreachable.
const REJECTION = /^(ERR|WRONGTYPE|CROSSSLOT|NOPERM|NOSCRIPT)\b/;

/**
 * Runs registered scripts through an executor: EVALSHA first, EVAL when the server answers
 * NOSCRIPT (after a restart or `SCRIPT FLUSH`), every call bounded by `commandTimeout`.
 */
export class ScriptRunner {
  readonly #executor: Executor;
  readonly #commandTimeout: number;

  constructor(executor: Executor, commandTimeout: number) {
    this.#executor = executor;
    this.#commandTimeout = commandTimeout;
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
    const call = this.#call(script, keys, args);
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        reject(new RedisUnavailableError(`Redis did not answer ${script.name} within ${this.#commandTimeout} ms`, { lockName: keys[0] }));
      }, this.#commandTimeout);
      call.then(
        (reply) => {
          clearTimeout(timer);
          if (timedOut) onLateReply?.(reply);
          else resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!timedOut) reject(classify(error, script, keys[0]));
        },
      );
    });
  }

  async #call(script: Script, keys: readonly string[], args: readonly ScriptArgument[]): Promise<unknown> {
    try {
      return await this.#executor.evalsha(script.sha, keys, args);
    } catch (error) {
      if (!messageOf(error).startsWith('NOSCRIPT')) throw error;
      return this.#executor.eval(script.source, keys, args);
    }
  }
}

function classify(error: unknown, script: Script, lockName: string | undefined): LockError {
  if (error instanceof LockError) return error;
  const message = messageOf(error);
  if (REJECTION.test(message)) return new LockError(`Redis rejected ${script.name}: ${message}`, { lockName, cause: error });
  return new RedisUnavailableError(`Redis unavailable during ${script.name}: ${message}`, { lockName, cause: error });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

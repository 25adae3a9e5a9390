import { LockError, RedisUnavailableError } from '../errors/LockError.js';
import { permissionDenied } from '../errors/PermissionDeniedError.js';
import type { CommandArguments, Executor } from './Executor.js';

/**
 * Sends one plain command on `key`'s connection and resolves its reply, bounded by `timeout`:
 * rejects with `RedisUnavailableError` when Redis cannot be reached or does not answer in time,
 * and with `PermissionDeniedError` when the ACL user may not run it. `operation` names the
 * command's purpose in messages, e.g. `INFO memory (the eviction policy check)`.
 */
export function askServer(
  executor: Executor,
  key: string,
  args: CommandArguments,
  timeout: number,
  operation: string,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisUnavailableError(`Redis did not answer ${operation} within ${timeout} ms`)),
      timeout,
    );
  });
  const asked = Promise.resolve()
    .then(() => executor.command(key, args))
    .catch((error: unknown) => {
      if (error instanceof LockError) throw error;
      throw (
        permissionDenied(error, { operation }) ??
        new RedisUnavailableError(`${operation} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        })
      );
    });
  return Promise.race([asked, timedOut]).finally(() => clearTimeout(timer));
}

import { InvalidArgumentError } from '../errors/LockError.js';
import type { LocalHandoffs } from '../handoff/LocalHandoffs.js';
import type { PublishCommand } from '../scripts/Command.js';
import { lockRuntime, type LockHost, type LockRuntime } from './LockRuntime.js';

/**
 * The runtime as `LockBase` uses it: the public {@link LockRuntime} and what only core's own lock
 * machinery needs (local hand-offs, the publish command). Kept out of the kit so that
 * these stay free to change; a `LockClient`'s runtime is one.
 */
export interface CoreRuntime extends LockRuntime {
  /** The command lock scripts publish with: `spublish` when lock channels are sharded, else `publish`. */
  publishCommand(): Promise<PublishCommand>;
  /**
   * The client's local waiters that a releasing holder may pass a lock to (`LockKind.handOff`);
   * `undefined` when the client's `localHandoff` option is `false`.
   */
  readonly localHandoffs: LocalHandoffs | undefined;
}

/**
 * The full runtime of `client` (a `LockClient`, possibly made by another copy of `@deadbolt/core`),
 * for `LockBase`.
 *
 * @throws `InvalidArgumentError` when `client` is not a `LockClient`
 */
export function coreRuntime(client: LockHost): CoreRuntime {
  const runtime: LockRuntime & Partial<CoreRuntime> = lockRuntime(client);
  if (typeof runtime.publishCommand !== 'function') throw new InvalidArgumentError('client', 'expected a LockClient');
  return runtime as CoreRuntime;
}

// A storage that refuses the writes of a holder whose lock has moved on: per resource it keeps
// the highest fencing token it has accepted, and accepts a write only with a token at least that
// high. The check and the write are one Lua script, so no write slips in between them.
//
// A real service would make the same check in its own storage: a conditional UPDATE
// (`... WHERE fence_token <= $token`), a compare-and-set, an object store's preconditions.
// A module, not a program: fenced-storage.ts uses it (and so do @deadbolt/fenced-lock's tests).
import type { Executor } from '@deadbolt/core';

// KEYS[1] the resource's value, KEYS[2] the highest token accepted for it (same hash tag);
// ARGV[1] the value, ARGV[2] the writer's token. Tokens are compared as decimal strings (length,
// then digits), exact for any 64-bit token, where Lua numbers would round above 2^53.
// Returns 1 when written, 0 when refused.
const FENCED_WRITE = `
local highest = redis.call('get', KEYS[2])
local token = ARGV[2]
if highest and (#token < #highest or (#token == #highest and token < highest)) then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call('set', KEYS[2], token)
return 1`;

/** Values in Redis, written only by holders of the newest fencing token. */
export class FencedStorage {
  readonly #redis: Pick<Executor, 'eval'>;

  /** @param redis - anything that runs a Lua script, e.g. the executor your lock client uses */
  constructor(redis: Pick<Executor, 'eval'>) {
    this.#redis = redis;
  }

  /** Writes `value` unless a write with a higher token came first; resolves whether it wrote. */
  async write(resource: string, value: string, token: bigint): Promise<boolean> {
    const reply = await this.#redis.eval(FENCED_WRITE, keysOf(resource), [value, String(token)]);
    return Number(reply) === 1;
  }

  /** The value last written, or `null`. */
  async read(resource: string): Promise<string | null> {
    const reply = await this.#redis.eval("return redis.call('get', KEYS[1])", keysOf(resource), []);
    return typeof reply === 'string' ? reply : null;
  }
}

function keysOf(resource: string): [value: string, fence: string] {
  return [`storage:{${resource}}`, `storage:{${resource}}:fence`];
}

import { RespConnection, type RedisAddress, type RespArgument, type RespValue } from '@deadbolt/test-harness';

/** Where the store is reached: its address, or its Unix socket (beyond any network fault). */
export type StoreAddress = RedisAddress | { readonly path: string };

/** The keys of one guarded resource in the store. */
export interface ResourceKeys {
  /** The counter every exclusive hold increments with a GET and a later SET: not atomic on purpose. */
  readonly counter: string;
  /** The set of hold ids whose increment landed (written in the same transaction as the counter). */
  readonly writes: string;
  /** The highest fencing token the resource has seen. */
  readonly fence: string;
}

/** The resource keys for a lock named `lockName`. */
export function resourceKeys(lockName: string): ResourceKeys {
  return { counter: `${lockName}:counter`, writes: `${lockName}:writes`, fence: `${lockName}:fence` };
}

/** What a read returns: the counter, or `rejected` when a fenced read came with a stale token. */
export type StoreRead = { readonly accepted: true; readonly value: number } | { readonly accepted: false };

/**
 * The resource the locks guard, on a Redis server of its own that no fault touches, so that its
 * figures survive every fault injected into the lock servers. Without a token it is a plain
 * store; with one it is a fenced store: every read and write carries the holder's fencing token,
 * and the store refuses a token lower than the highest it has seen, then remembers the higher
 * one. The check uses WATCH/MULTI/EXEC, no Lua. One instance per task: WATCH belongs to a
 * connection.
 */
export class ResourceStore {
  readonly #connection: RespConnection;

  private constructor(connection: RespConnection) {
    this.#connection = connection;
  }

  static async connect(address: StoreAddress): Promise<ResourceStore> {
    return new ResourceStore(await RespConnection.connect(address, { timeoutMs: 10_000 }));
  }

  /** Reads the counter. */
  async read(keys: ResourceKeys, token?: bigint): Promise<StoreRead> {
    if (token === undefined)
      return { accepted: true, value: Number(await this.#connection.command('GET', keys.counter)) };
    const replies = await this.#fenced(keys, token, [['GET', keys.counter]]);
    return replies === null ? { accepted: false } : { accepted: true, value: Number(replies[0]) };
  }

  /**
   * Sets the counter to `value` and records `holdId` as a landed write, in one transaction.
   * Resolves `false` when a fenced write came with a stale token and changed nothing.
   */
  async write(keys: ResourceKeys, value: number, holdId: string, token?: bigint): Promise<boolean> {
    const commands: RespArgument[][] = [
      ['SET', keys.counter, value],
      ['SADD', keys.writes, holdId],
    ];
    if (token === undefined) return (await this.#transaction(commands)) !== null;
    return (await this.#fenced(keys, token, commands)) !== null;
  }

  close(): void {
    this.#connection.close();
  }

  /**
   * Runs `commands` after checking `token` against the highest seen, and raises the highest to
   * it, atomically; `null` when the token is stale. Retries when another holder moved the fence
   * between the check and the transaction.
   */
  async #fenced(keys: ResourceKeys, token: bigint, commands: readonly RespArgument[][]): Promise<RespValue[] | null> {
    for (;;) {
      await this.#connection.command('WATCH', keys.fence);
      const highest = await this.#connection.command('GET', keys.fence);
      if (highest !== null && token < BigInt(String(highest))) {
        await this.#connection.command('UNWATCH');
        return null;
      }
      const replies = await this.#transaction([['SET', keys.fence, token.toString()], ...commands]);
      if (replies !== null) return replies.slice(1);
    }
  }

  /** MULTI ... EXEC; `null` when a watched key changed. */
  async #transaction(commands: readonly RespArgument[][]): Promise<RespValue[] | null> {
    // Pipelined: one round trip for the whole transaction.
    const sent = [['MULTI'], ...commands, ['EXEC']].map((command) => this.#connection.command(...command));
    const replies = (await Promise.all(sent)).at(-1);
    if (replies === null) return null;
    if (!Array.isArray(replies)) throw new Error(`unexpected EXEC reply ${String(replies)}`);
    return replies;
  }
}

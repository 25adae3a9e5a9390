import type { RedisAddress } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';

/** Receives every message of the channels a {@link RedissonSubscriber} subscribed. */
export type MessageListener = (channel: string, message: string) => void;

/**
 * The peer's subscriber connections, one per node, as Redisson keeps a pub/sub connection pool:
 * a channel is subscribed on the master that serves its slot (which a sharded subscription
 * requires; a classic one would do on any node). A connection in subscriber mode runs no other
 * command, hence connections of their own, made with a driver that understands pushed messages.
 */
export class RedissonSubscriber {
  readonly #nodeFor: (channel: string) => Promise<RedisAddress>;
  readonly #listener: MessageListener;
  readonly #connectionName: string;
  readonly #connections = new Map<string, Promise<Redis>>();
  readonly #subscribed = new Map<string, { readonly connection: Redis; readonly sharded: boolean }>();
  #closed = false;

  /**
   * @param nodeFor - where a channel is subscribed
   * @param listener - called with every message
   * @param connectionName - the name (CLIENT SETNAME) of the subscriber connections
   */
  constructor(nodeFor: (channel: string) => Promise<RedisAddress>, listener: MessageListener, connectionName: string) {
    this.#nodeFor = nodeFor;
    this.#listener = listener;
    this.#connectionName = connectionName;
  }

  /** The channels subscribed now (confirmed by the server), sorted. */
  get channels(): string[] {
    return [...this.#subscribed.keys()].sort();
  }

  /** Subscribes `channel` (SSUBSCRIBE when `sharded`) and resolves once the server confirmed it. */
  async subscribe(channel: string, sharded: boolean): Promise<void> {
    const connection = await this.#connection(await this.#nodeFor(channel));
    if (sharded) await connection.ssubscribe(channel);
    else await connection.subscribe(channel);
    this.#subscribed.set(channel, { connection, sharded });
  }

  /** Unsubscribes `channel`; nothing happens when it is not subscribed. */
  async unsubscribe(channel: string): Promise<void> {
    const subscription = this.#subscribed.get(channel);
    if (subscription === undefined) return;
    this.#subscribed.delete(channel);
    const { connection, sharded } = subscription;
    // The connection may be gone (shutdown); nothing is then left on the server.
    if (sharded) await connection.sunsubscribe(channel).catch(() => undefined);
    else await connection.unsubscribe(channel).catch(() => undefined);
  }

  /** Closes every subscriber connection at once, as a process that dies would. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#subscribed.clear();
    const open = [...this.#connections.values()];
    this.#connections.clear();
    for (const connection of await Promise.allSettled(open)) {
      if (connection.status === 'fulfilled') connection.value.disconnect();
    }
  }

  async #connection(node: RedisAddress): Promise<Redis> {
    if (this.#closed) throw new Error('the Redisson peer is shut down');
    const id = `${node.host}:${node.port}`;
    let connection = this.#connections.get(id);
    if (connection === undefined) {
      const redis = new Redis({
        host: node.host,
        port: node.port,
        lazyConnect: true,
        connectionName: this.#connectionName,
      });
      // Errors surface through the commands; a test that kills servers must not crash the run.
      redis.on('error', () => undefined);
      redis.on('message', (channel: string, message: string) => this.#listener(channel, message));
      redis.on('smessage', (channel: string, message: string) => this.#listener(channel, message));
      connection = redis.connect().then(() => redis);
      connection.catch(() => this.#connections.delete(id));
      this.#connections.set(id, connection);
    }
    return connection;
  }
}

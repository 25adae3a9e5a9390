import { hashSlot } from '@deadbolt/core/adapter';
import { RespConnection, type RedisAddress, type RespArgument, type RespValue } from '@deadbolt/test-harness';
import type { Backend } from '../backends/index.js';

/** How long the peer waits for a connection or a reply before the command fails. */
const REPLY_TIMEOUT_MS = 10_000;

/**
 * The peer's command connections: a command about a key goes to the master that owns the key's
 * slot (the standalone server otherwise), over one persistent raw RESP connection per node, as
 * Redisson's connection manager routes it. Replies come back as RESP2 decodes them (nil is
 * `null`, integers are numbers).
 */
export class RedissonConnections {
  readonly #backend: Backend;
  readonly #connectionName: string;
  readonly #nodeBySlot = new Map<number, Promise<RedisAddress>>();
  readonly #connections = new Map<string, Promise<RespConnection>>();
  #closed = false;

  /**
   * @param backend - the deployment to talk to
   * @param connectionName - set with CLIENT SETNAME on every connection, so a test can find them
   */
  constructor(backend: Backend, connectionName: string) {
    this.#backend = backend;
    this.#connectionName = connectionName;
  }

  /** Whether the deployment is a Redis Cluster. */
  get isCluster(): boolean {
    return this.#backend.spec.topology === 'cluster';
  }

  /** The master that serves `key`'s slot; the standalone server when there is no cluster. */
  nodeFor(key: string): Promise<RedisAddress> {
    const cluster = this.#backend.cluster;
    if (cluster === undefined) return Promise.resolve(this.#standalone());
    const slot = hashSlot(key);
    let node = this.#nodeBySlot.get(slot);
    if (node === undefined) {
      node = cluster.masterForKey(key).then((found) => ({ host: found.host, port: found.port }));
      // A failed look-up is asked again next time.
      node.catch(() => this.#nodeBySlot.delete(slot));
      this.#nodeBySlot.set(slot, node);
    }
    return node;
  }

  /** Runs one command on the node that serves `key`. */
  async command(key: string, args: readonly RespArgument[]): Promise<RespValue> {
    const connection = await this.#connection(await this.nodeFor(key));
    return connection.command(...args);
  }

  /** Runs one command on any node (the standalone server, or the master serving slot 0's key). */
  async commandOnAnyNode(args: readonly RespArgument[]): Promise<RespValue> {
    return this.command('', args);
  }

  /** Closes every connection; later commands fail. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const open = [...this.#connections.values()];
    this.#connections.clear();
    for (const connection of await Promise.allSettled(open)) {
      if (connection.status === 'fulfilled') connection.value.close();
    }
  }

  #standalone(): RedisAddress {
    const [address] = this.#backend.spec.nodes;
    if (address === undefined) throw new Error('the backend has no standalone server');
    return address;
  }

  async #connection(node: RedisAddress): Promise<RespConnection> {
    if (this.#closed) throw new Error('the Redisson peer is shut down');
    const id = `${node.host}:${node.port}`;
    let connection = this.#connections.get(id);
    if (connection !== undefined) {
      const open = await connection.catch(() => undefined);
      if (open !== undefined && !open.closed) return open;
      if (this.#connections.get(id) === connection) this.#connections.delete(id);
    }
    connection = this.#connections.get(id);
    if (connection === undefined) {
      connection = RespConnection.connect(node, { timeoutMs: REPLY_TIMEOUT_MS, name: this.#connectionName });
      this.#connections.set(id, connection);
    }
    const opened = await connection;
    if (this.#closed) {
      opened.close();
      throw new Error('the Redisson peer is shut down');
    }
    return opened;
  }
}

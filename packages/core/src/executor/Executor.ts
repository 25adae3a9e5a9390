/** A value passed to a Lua script as KEYS or ARGV. */
export type ScriptArgument = string | number;

/** A plain command for {@link Executor.command}: its name, then its arguments. */
export type CommandArguments = readonly [name: string, ...args: ScriptArgument[]];

/**
 * What an adapter tells the lock client about its connections. The client registers exactly one
 * listener with {@link Executor.listen}.
 */
export interface ExecutorListener {
  /** A message arrived on a channel this executor subscribed to (classic or sharded). */
  onMessage(channel: string, message: string): void;
  /**
   * The subscriber connection came back after a loss and its subscriptions were restored.
   * Messages published in between are lost, so every waiter should try again at once.
   */
  onSubscriberReconnect(): void;
}

/**
 * The one seam between Deadbolt and a Redis driver. Everything a lock needs from Redis goes
 * through these few calls; an adapter (`@deadbolt/adapter-ioredis`,
 * `@deadbolt/adapter-node-redis`) implements them over the client the application already has.
 *
 * Contract:
 * - Script calls run on the user's client. In a cluster they are routed by the first key, and
 *   every key of one call shares a hash slot (the caller guarantees it).
 * - {@link Executor.command} sends a plain command on the very connection a script whose first
 *   key is the same would run on, so that a command about that connection's writes (WAIT, WAITAOF)
 *   covers the script's. In a cluster that is the client's own connection to the master owning
 *   the key's slot; the command goes there alone, whatever fan-out the driver would give it.
 * - A missing script makes {@link Executor.evalsha} reject with the server's `NOSCRIPT` error
 *   unchanged; the script registry in core then falls back to {@link Executor.eval}.
 * - Replies are returned as the driver decodes them: integers as numbers, nil as `null`, arrays as
 *   arrays. Under RESP3 the same scripts reply with the same shapes.
 * - Subscriptions run on a connection the adapter opened itself (a duplicate of the user's
 *   client). The adapter subscribes each channel once per call; reference counting is core's job.
 *   After a reconnect the adapter restores its subscriptions and reports
 *   {@link ExecutorListener.onSubscriberReconnect}.
 * - {@link Executor.close} closes only what the adapter opened, never the user's client.
 */
export interface Executor {
  /** `true` when the client is a Redis Cluster client. */
  readonly isCluster: boolean;
  /** Runs a cached script by its SHA1 digest. */
  evalsha(sha: string, keys: readonly string[], args: readonly ScriptArgument[]): Promise<unknown>;
  /** Runs a script from source (and caches it on the server). */
  eval(source: string, keys: readonly string[], args: readonly ScriptArgument[]): Promise<unknown>;
  /**
   * Sends one command, e.g. `['WAIT', 1, 100]`, on the connection that runs scripts whose first
   * key is `key`, and resolves its reply as the driver decodes it.
   */
  command(key: string, args: CommandArguments): Promise<unknown>;
  /** Subscribes the adapter's subscriber connection to a channel; sharded uses `SSUBSCRIBE`. */
  subscribe(channel: string, sharded: boolean): Promise<void>;
  /** Undoes {@link Executor.subscribe} for one channel. */
  unsubscribe(channel: string, sharded: boolean): Promise<void>;
  /**
   * Registers the listener for messages and reconnects. An executor serves one lock client: a
   * second call throws `InvalidArgumentError`.
   */
  listen(listener: ExecutorListener): void;
  /** Closes the connections the adapter opened. Idempotent. */
  close(): Promise<void>;
}

// The shapes of node-redis clients that the executor relies on, written out structurally: the
// driver's own generic types are invariant in their modules, scripts, RESP version and type
// mapping, so no single instantiation of `RedisClientType` accepts every client. Any client from
// `createClient()`, `createCluster()` or `createSentinel()` of redis 5 or 6 fits these
// (test/acceptedClients.ts).

/** KEYS and ARGV of a script call, as node-redis takes them. */
export interface NodeRedisScriptOptions {
  keys: string[];
  arguments: string[];
}

/** A message callback of node-redis pub/sub. */
export type NodeRedisPubSubListener = (message: string, channel: string) => unknown;

/** What the executor uses of the subscriber connection it duplicates from the user's client. */
export interface NodeRedisSubscriberClient {
  /** Opens the connection; commands sent meanwhile wait in the offline queue. */
  connect(): Promise<unknown>;
  /** Closes the connection at once. */
  destroy(): void;
  /** Listens for the client's events (`ready`, `reconnecting`, `end`, `error`, ...). */
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  /** `SUBSCRIBE`, calling `listener` for each message. */
  subscribe(channel: string, listener: NodeRedisPubSubListener): Promise<void>;
  /** `UNSUBSCRIBE` once `listener` was the channel's last callback. */
  unsubscribe(channel: string, listener: NodeRedisPubSubListener): Promise<void>;
  /** `SSUBSCRIBE`, calling `listener` for each message. */
  sSubscribe(channel: string, listener: NodeRedisPubSubListener): Promise<void>;
  /** `SUNSUBSCRIBE` once `listener` was the channel's last callback. */
  sUnsubscribe(channel: string, listener: NodeRedisPubSubListener): Promise<void>;
  /** The channels node-redis holds callbacks for, and so restores after a reconnect. */
  getPubSubListeners(type: 'CHANNELS' | 'SHARDED'): ReadonlyMap<string, unknown>;
}

/** One connection of a node-redis client, as the executor copies it for its subscriber. */
export interface NodeRedisConnection {
  /** A new, unconnected client with the same options but these. */
  duplicate(overrides: { name: string; disableOfflineQueue: boolean }): NodeRedisSubscriberClient;
}

/** A node-redis standalone client (`createClient()`), as the executor uses it. */
export interface NodeRedisClient extends NodeRedisConnection {
  /** `EVALSHA`. */
  evalSha(sha1: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** `EVAL`. */
  eval(script: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** Any command, the name first, every argument a string. */
  sendCommand(args: readonly string[]): Promise<unknown>;
}

/** A node of a node-redis cluster's slot map. */
export interface NodeRedisClusterNode {
  /** `host:port`, as the cluster client keys its nodes. */
  readonly address: string;
}

/** A node-redis cluster client (`createCluster()`), as the executor uses it. */
export interface NodeRedisCluster {
  /** `EVALSHA`, routed by the first key. */
  evalSha(sha1: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** `EVAL`, routed by the first key. */
  eval(script: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** The slot map: each slot's master. */
  readonly slots: readonly { readonly master: NodeRedisClusterNode }[];
  /** The cluster's own connection to a node, to duplicate from. */
  nodeClient(node: NodeRedisClusterNode): NodeRedisClient | Promise<NodeRedisClient>;
}

/** A host and port, as a node-redis Sentinel client names the master it uses. */
export interface NodeRedisSentinelNode {
  readonly host: string;
  readonly port: number;
}

/** What a node-redis Sentinel client announces on `topology-change`; the executor reads `type` only. */
export interface NodeRedisSentinelEvent {
  /** `MASTER_CHANGE` when it moved to a new master; `SENTINEL_CHANGE`, `REPLICA_ADD`, ... otherwise. */
  readonly type: string;
}

/** A node-redis Sentinel client (`createSentinel()`), as the executor uses it. */
export interface NodeRedisSentinel {
  /** `EVALSHA`, on the master. */
  evalSha(sha1: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** `EVAL`, on the master. */
  eval(script: string, options: NodeRedisScriptOptions): Promise<unknown>;
  /** Any command, on the master when `isReadonly` is false. */
  sendCommand(isReadonly: boolean | undefined, args: string[]): Promise<unknown>;
  /** The master it currently uses; `undefined` before it connected. */
  getMasterNode(): NodeRedisSentinelNode | undefined;
  /**
   * Runs `fn` on one of its own master connections: the one place its per-node options
   * (credentials, TLS, RESP) can be copied from.
   */
  _execute<T>(isReadonly: boolean | undefined, fn: (client: NodeRedisConnection) => Promise<T>): Promise<T>;
  /** Listens for `topology-change` (a new master, sentinel or replica). */
  on(event: 'topology-change', listener: (event: NodeRedisSentinelEvent) => void): unknown;
  /** Stops listening. */
  off(event: 'topology-change', listener: (event: NodeRedisSentinelEvent) => void): unknown;
}

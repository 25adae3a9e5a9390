import { DriverLink } from '../src/adapter/DriverLink.js';
import type { LinkEvents, SubscriberLink } from '../src/adapter/SubscriberLink.js';
import type { Topology } from '../src/adapter/SubscriberRouter.js';
import type { ExecutorListener } from '../src/executor/Executor.js';

/**
 * A fake Redis Cluster for the subscriber router's unit tests: in-order connections whose
 * commands reach the server in the order they were issued (queued while the connection is not
 * up, as ioredis's offline queue does) and whose replies arrive only when the test says so.
 * The server side tracks every connection's real subscriptions, so a test can compare what the
 * servers hold with what the router believes.
 */

type CommandName = 'SUBSCRIBE' | 'UNSUBSCRIBE' | 'SSUBSCRIBE' | 'SUNSUBSCRIBE';

interface Command {
  readonly name: CommandName;
  readonly channel: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  /** The server's refusal, decided when the command reached it. */
  refusal?: Error;
}

/** One subscriber connection to one fake node. */
export class FakeConnection {
  readonly node: FakeNode;
  /** Every command in the order it reached the server, e.g. `SUBSCRIBE c`. */
  readonly log: string[] = [];
  /** What the server holds for this connection: `c:<channel>` classic, `s:<channel>` sharded. */
  readonly subscribed = new Set<string>();
  onReady: () => void = () => undefined;
  onClose: () => void = () => undefined;
  onMoved: () => void = () => undefined;
  onMessage: (channel: string, message: string) => void = () => undefined;
  /** When set, the server refuses the next subscribe that reaches it with this error. */
  refuseNext: Error | undefined;
  #up = false;
  #closed = false;
  // Issued while the connection was not up; sent in order once it is.
  #offline: Command[] = [];
  // Reached the server; replies come back in this order.
  #awaiting: Command[] = [];

  constructor(node: FakeNode) {
    this.node = node;
  }

  get up(): boolean {
    return this.#up;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Commands whose reply has not arrived yet, sent or not. */
  get pending(): number {
    return this.#offline.length + this.#awaiting.length;
  }

  /** Issues a command the way a driver does: sent now when up, queued otherwise. */
  send(name: CommandName, channel: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('Connection is closed.'));
    return new Promise((resolve, reject) => {
      const command: Command = { name, channel, resolve, reject };
      if (this.#up) this.#transmit(command);
      else this.#offline.push(command);
    });
  }

  /** The connection is established: the offline queue goes out, then the driver says 'ready'. */
  connect(): void {
    if (this.#up || this.#closed) return;
    this.#up = true;
    for (const command of this.#offline.splice(0)) this.#transmit(command);
    this.onReady();
  }

  /**
   * The connection drops: the server forgets its subscriptions, and commands without a reply are
   * sent again after the reconnect (ioredis's `autoResendUnfulfilledCommands`).
   */
  drop(): void {
    if (!this.#up) return;
    this.#up = false;
    this.subscribed.clear();
    this.#offline = [...this.#awaiting.splice(0), ...this.#offline];
    this.onClose();
  }

  /** Delivers the oldest reply; `false` when none is due. */
  replyNext(): boolean {
    const command = this.#awaiting.shift();
    if (!command) return false;
    if (command.refusal) command.reject(command.refusal);
    else command.resolve();
    return true;
  }

  /** Closed by the client: every command without a reply fails. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#up = false;
    this.subscribed.clear();
    for (const command of [...this.#awaiting.splice(0), ...this.#offline.splice(0)])
      command.reject(new Error('Connection is closed.'));
  }

  /** The server drops a sharded channel whose slot left this node, and tells the client. */
  dropSharded(channel: string): void {
    if (this.subscribed.delete(`s:${channel}`)) this.onMoved();
  }

  #transmit(command: Command): void {
    this.log.push(`${command.name} ${command.channel}`);
    const sharded = command.name === 'SSUBSCRIBE' || command.name === 'SUNSUBSCRIBE';
    const key = `${sharded ? 's' : 'c'}:${command.channel}`;
    if (command.name === 'UNSUBSCRIBE' || command.name === 'SUNSUBSCRIBE') {
      this.subscribed.delete(key);
    } else if (this.refuseNext) {
      command.refusal = this.refuseNext;
      this.refuseNext = undefined;
    } else if (sharded && this.node.cluster.ownerOf(command.channel) !== this.node.address) {
      // A cluster node refuses a sharded channel of a slot it does not serve.
      command.refusal = new Error(`MOVED 1 ${this.node.cluster.ownerOf(command.channel)}`);
    } else {
      this.subscribed.add(key);
    }
    this.#awaiting.push(command);
  }
}

/** A fake cluster node: the subscriber connections clients opened to it. */
export class FakeNode {
  readonly cluster: FakeCluster;
  readonly address: string;
  readonly connections: FakeConnection[] = [];

  constructor(cluster: FakeCluster, address: string) {
    this.cluster = cluster;
    this.address = address;
  }

  /** Finishes connecting every connection that is still connecting. */
  connectAll(): void {
    for (const connection of this.connections) if (!connection.closed) connection.connect();
  }

  /** Drops every open connection (the driver then reconnects when the test says so). */
  dropAll(): void {
    for (const connection of this.connections) connection.drop();
  }

  /** The connections not closed by the client. */
  get open(): FakeConnection[] {
    return this.connections.filter((connection) => !connection.closed);
  }
}

/** A {@link DriverLink} over a {@link FakeConnection}, written like the ioredis adapter's link. */
export class FakeLink extends DriverLink {
  readonly #connection: FakeConnection;

  constructor(connection: FakeConnection, events: LinkEvents) {
    super(events);
    this.#connection = connection;
    connection.onReady = () => void this.connectionReady();
    connection.onClose = () => this.connectionLost();
    connection.onMoved = () => events.moved();
    connection.onMessage = (channel, message) => events.message(channel, message);
  }

  protected sendSubscribe(channel: string, sharded: boolean): Promise<unknown> {
    return this.#connection.send(sharded ? 'SSUBSCRIBE' : 'SUBSCRIBE', channel);
  }

  protected sendUnsubscribe(channel: string, sharded: boolean): Promise<unknown> {
    return this.#connection.send(sharded ? 'SUNSUBSCRIBE' : 'UNSUBSCRIBE', channel);
  }

  protected async restore(): Promise<void> {
    const replies = [
      ...[...this.classic].map((channel) => this.#connection.send('SUBSCRIBE', channel)),
      ...[...this.sharded].map((channel) => this.#connection.send('SSUBSCRIBE', channel)),
    ];
    const results = await Promise.allSettled(replies);
    if (results.some((result) => result.status === 'rejected')) this.events.moved();
  }

  protected closeConnection(): void {
    this.#connection.close();
  }
}

/**
 * The fake cluster: which node owns each channel's slot (the truth), and the slot map the client
 * last loaded (what {@link FakeCluster.topology} answers from until it is refreshed).
 */
export class FakeCluster {
  readonly nodes = new Map<string, FakeNode>();
  /** How many times the router opened a connection. */
  opened = 0;
  readonly #owners = new Map<string, string>();
  readonly #clientMap = new Map<string, string>();
  readonly #watchers = new Set<() => void>();
  readonly #firstNode: string;
  /** When set, route lookups wait for it: a slot map that is being loaded. */
  lookupGate: Promise<void> | undefined;

  constructor(addresses: readonly string[]) {
    for (const address of addresses) this.nodes.set(address, new FakeNode(this, address));
    const first = addresses[0];
    if (first === undefined) throw new Error('a cluster needs a node');
    this.#firstNode = first;
  }

  node(address: string): FakeNode {
    const node = this.nodes.get(address);
    if (!node) throw new Error(`no node ${address}`);
    return node;
  }

  ownerOf(channel: string): string {
    return this.#owners.get(channel) ?? this.#firstNode;
  }

  /** Places a channel's slot on a node, in the truth and in the client's slot map. */
  place(channel: string, address: string): void {
    this.#owners.set(channel, address);
    this.#clientMap.set(channel, address);
  }

  /**
   * Migrates a channel's slot: the old owner drops its sharded subscribers (telling them), and the
   * client's slot map stays stale until refreshed.
   */
  migrate(channel: string, address: string): void {
    const from = this.ownerOf(channel);
    this.#owners.set(channel, address);
    for (const connection of this.node(from).connections) connection.dropSharded(channel);
  }

  /** The driver reloads its slot map by itself and announces it (ioredis's 'refresh'). */
  reload(): void {
    this.#refresh();
    for (const watcher of this.#watchers) watcher();
  }

  /**
   * Publishes a message the way the cluster does (`PUBLISH` reaches every node, `SPUBLISH` only
   * the slot's owner) and returns how many subscriber connections received it.
   */
  publish(channel: string, message: string, sharded = false): number {
    const key = `${sharded ? 's' : 'c'}:${channel}`;
    const nodes = sharded ? [this.node(this.ownerOf(channel))] : [...this.nodes.values()];
    const receivers = nodes
      .flatMap((node) => node.connections)
      .filter((connection) => connection.up && connection.subscribed.has(key));
    for (const connection of receivers) connection.onMessage(channel, message);
    return receivers.length;
  }

  /** The nodes whose connections hold the channel, server side, in node order. */
  holders(channel: string, sharded = false): string[] {
    const key = `${sharded ? 's' : 'c'}:${channel}`;
    return [...this.nodes.values()]
      .filter((node) => node.connections.some((c) => c.subscribed.has(key)))
      .map((node) => node.address);
  }

  /** Every subscription any server holds, as `<address> <c|s>:<channel>`, sorted. */
  everything(): string[] {
    return [...this.nodes.values()]
      .flatMap((node) => node.connections.flatMap((c) => [...c.subscribed].map((key) => `${node.address} ${key}`)))
      .sort();
  }

  /** Every connection the router opened, in opening order. */
  get connections(): FakeConnection[] {
    return [...this.nodes.values()].flatMap((node) => node.connections);
  }

  /** Delivers every due reply, and the replies they lead to, until nothing is outstanding. */
  async settle(): Promise<void> {
    for (;;) {
      await flush();
      const due = this.connections.filter((connection) => connection.up);
      let replied = false;
      for (const connection of due) while (connection.replyNext()) replied = true;
      if (!replied) {
        await flush();
        if (!this.connections.some((connection) => connection.up && connection.pending > 0)) return;
      }
    }
  }

  readonly topology: Topology = {
    isCluster: true,
    nodeFor: async (channel) => {
      await this.lookupGate;
      return this.#clientMap.get(channel) ?? this.#firstNode;
    },
    open: (address, events): Promise<SubscriberLink> => {
      this.opened++;
      const connection = new FakeConnection(this.node(address));
      this.node(address).connections.push(connection);
      return Promise.resolve(new FakeLink(connection, events));
    },
    refresh: () => {
      this.#refresh();
      return Promise.resolve();
    },
    watch: (onChange) => {
      this.#watchers.add(onChange);
      return () => this.#watchers.delete(onChange);
    },
  };

  #refresh(): void {
    for (const [channel, address] of this.#owners) this.#clientMap.set(channel, address);
  }
}

/** A listener that records what the router reported. */
export function recorder(): ExecutorListener & { messages: string[]; reconnects: number } {
  const heard = {
    messages: [] as string[],
    reconnects: 0,
    onMessage(channel: string, message: string) {
      heard.messages.push(`${channel}:${message}`);
    },
    onSubscriberReconnect() {
      heard.reconnects++;
    },
  };
  return heard;
}

/**
 * Runs every pending promise callback. The tests fake only the timers, so `setImmediate` is real
 * and fires after the microtask queue is empty.
 */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Whether a promise has settled yet, without waiting for it. */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

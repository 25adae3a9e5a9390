import { InvalidArgumentError } from '../errors/LockError.js';
import type { ExecutorListener } from '../executor/Executor.js';
import type { LinkEvents, SubscriberLink } from './SubscriberLink.js';

/** Where subscriptions live: the one server of a standalone client, the slot's master in a cluster. */
export interface Topology {
  /** Whether channels are spread over the nodes of a cluster. */
  readonly isCluster: boolean;
  /** The address of the node a channel's subscription belongs on. */
  nodeFor(channel: string): Promise<string>;
  /** Opens a subscriber connection to that node. */
  open(address: string, events: LinkEvents): Promise<SubscriberLink>;
  /** Asks the driver to reload the cluster's slot map (a no-op for a single server). */
  refresh(): Promise<void>;
  /**
   * Calls `onChange` whenever the driver has reloaded its slot map, if it tells; returns the
   * function that stops watching.
   */
  watch(onChange: () => void): () => void;
}

interface Subscription {
  readonly channel: string;
  readonly sharded: boolean;
  address: string;
}

// How often a cluster subscription stranded on an unreachable node looks for its slot's new owner.
const RECHECK_MS = 1000;

/**
 * Keeps every channel subscribed on the right node. Each channel goes to the connection of the
 * node that owns its slot (sharded pub/sub requires it; classic channels follow the same rule so
 * that both kinds move together). When a slot moves, or a node stays unreachable until its
 * replica takes over, the affected channels move to the new owner and the listener hears of a
 * reconnect, since messages may have been lost meanwhile.
 */
export class SubscriberRouter {
  readonly #topology: Topology;
  readonly #subscriptions = new Map<string, Subscription>();
  readonly #links = new Map<string, Promise<SubscriberLink>>();
  readonly #down = new Set<string>();
  readonly #suspects = new Set<string>();
  #listener: ExecutorListener | undefined;
  #timer: NodeJS.Timeout | undefined;
  #rerouting = false;
  #rerouteAgain = false;
  #refreshFirst = false;
  #closing: Promise<void> | undefined;
  readonly #unwatch: () => void;

  constructor(topology: Topology) {
    this.#topology = topology;
    // The slot map the driver just reloaded may move channels whose node never said so (ioredis 5
    // mishandles the server's notice), so every reload is checked. It must not ask for another
    // reload, or the two would chase each other.
    this.#unwatch = topology.watch(() => {
      if (this.#subscriptions.size > 0) this.#scheduleReroute(0, false);
    });
  }

  /** Sets the one listener for messages and reconnects, replacing any earlier one. */
  listen(listener: ExecutorListener): void {
    // A second lock client on the same executor would silently take the first one's messages.
    if (this.#listener) throw new InvalidArgumentError('executor', 'is already used by a LockClient; create one executor per LockClient');
    this.#listener = listener;
  }

  /** Subscribes a channel on the connection to its node, opening that connection if needed. */
  async subscribe(channel: string, sharded: boolean): Promise<void> {
    try {
      await this.#subscribeOnce(channel, sharded);
    } catch (error) {
      // Our slot map was stale; the driver's refreshed one knows the new owner.
      if (!isMoved(error)) throw error;
      await this.#topology.refresh();
      await this.#subscribeOnce(channel, sharded);
    }
  }

  /** Unsubscribes a channel; the connection stays open for the next subscription. */
  async unsubscribe(channel: string, sharded: boolean): Promise<void> {
    const key = keyOf(channel, sharded);
    const subscription = this.#subscriptions.get(key);
    if (!subscription) return;
    this.#subscriptions.delete(key);
    // A connection that could not be opened holds no subscription.
    const link = await this.#links.get(subscription.address)?.catch(() => undefined);
    await link?.unsubscribe(channel, sharded);
  }

  /** Closes every connection the router opened. Idempotent. */
  close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.#unwatch();
    clearTimeout(this.#timer);
    const links = [...this.#links.values()];
    this.#links.clear();
    this.#subscriptions.clear();
    this.#closing = Promise.all(links.map((link) => link.then((opened) => opened.close()).catch(ignore))).then(() => undefined);
    return this.#closing;
  }

  async #subscribeOnce(channel: string, sharded: boolean): Promise<void> {
    const key = keyOf(channel, sharded);
    const address = await this.#topology.nodeFor(channel);
    const link = this.#link(address);
    const subscription: Subscription = { channel, sharded, address };
    this.#subscriptions.set(key, subscription);
    try {
      await (await link).subscribe(channel, sharded);
    } catch (error) {
      if (this.#subscriptions.get(key) === subscription) this.#subscriptions.delete(key);
      // A connection to a node that cannot be reached would otherwise retry forever for nobody.
      this.#closeIdleLinks();
      throw error;
    }
  }

  #link(address: string): Promise<SubscriberLink> {
    if (this.#closing) return Promise.reject(new Error('The executor is closed'));
    const existing = this.#links.get(address);
    if (existing) return existing;
    const current = () => this.#links.get(address) === link;
    const link = this.#topology.open(address, {
      message: (channel, message) => this.#deliver(channel, message),
      lost: () => {
        if (!current()) return;
        this.#down.add(address);
        if (this.#topology.isCluster) this.#scheduleReroute(RECHECK_MS);
      },
      restored: () => {
        if (!current()) return;
        this.#down.delete(address);
        this.#notifyReconnect();
      },
      moved: () => {
        if (!current()) return;
        this.#suspects.add(address);
        this.#scheduleReroute(0);
      },
    });
    this.#links.set(address, link);
    // A node that cannot be reached now may be reachable on the next attempt.
    link.catch(() => {
      if (current()) this.#links.delete(address);
    });
    return link;
  }

  #scheduleReroute(delay: number, refreshFirst = true): void {
    if (this.#closing) return;
    this.#refreshFirst ||= refreshFirst;
    if (this.#rerouting) {
      this.#rerouteAgain = true;
      return;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#rerouting = true;
      void this.#reroute().finally(() => {
        this.#rerouting = false;
        if (this.#rerouteAgain) {
          this.#rerouteAgain = false;
          this.#scheduleReroute(0, false);
        }
      });
    }, delay);
    // A pending recheck must not keep the process alive on its own.
    this.#timer.unref();
  }

  /** Moves every subscription whose slot changed owner, and re-checks those a node dropped. */
  async #reroute(): Promise<void> {
    const suspects = new Set(this.#suspects);
    this.#suspects.clear();
    if (this.#refreshFirst) {
      this.#refreshFirst = false;
      await this.#topology.refresh().catch(ignore);
    }
    let retry = false;
    const moves: Promise<boolean>[] = [];
    for (const [key, subscription] of [...this.#subscriptions]) {
      if (this.#closing) return;
      if (this.#subscriptions.get(key) !== subscription) continue;
      const owner = await this.#topology.nodeFor(subscription.channel).catch(() => undefined);
      if (owner === undefined) {
        retry = true;
        continue;
      }
      const from = subscription.address;
      if (owner === from && !suspects.has(owner)) continue;
      subscription.address = owner;
      if (owner !== from) {
        void this.#links.get(from)?.then((link) => link.unsubscribe(subscription.channel, subscription.sharded)).catch(ignore);
      }
      // In parallel: one slow node must not hold up the channels of the others.
      moves.push(this.#resubscribe(key, subscription));
    }
    const results = await Promise.all(moves);
    this.#closeIdleLinks();
    if (results.includes(true) && !this.#closing) this.#notifyReconnect();
    const stranded = [...this.#subscriptions.values()].some((subscription) => this.#down.has(subscription.address));
    if (retry || results.includes(false) || stranded) this.#scheduleReroute(RECHECK_MS);
  }

  /** Subscribes a moved subscription where it now belongs; `false` when that failed. */
  async #resubscribe(key: string, subscription: Subscription): Promise<boolean> {
    try {
      const link = await this.#link(subscription.address);
      await link.subscribe(subscription.channel, subscription.sharded);
      // Unsubscribed while we were moving it: undo, or it would linger with nobody listening.
      if (this.#subscriptions.get(key) !== subscription) await link.unsubscribe(subscription.channel, subscription.sharded);
      return true;
    } catch {
      this.#suspects.add(subscription.address);
      return false;
    }
  }

  #closeIdleLinks(): void {
    const used = new Set([...this.#subscriptions.values()].map((subscription) => subscription.address));
    for (const [address, link] of this.#links) {
      if (used.has(address)) continue;
      this.#links.delete(address);
      this.#down.delete(address);
      void link.then((opened) => opened.close()).catch(ignore);
    }
  }

  #deliver(channel: string, message: string): void {
    try {
      this.#listener?.onMessage(channel, message);
    } catch {
      // A listener bug must not escape into the driver's reply parser and break the connection.
    }
  }

  #notifyReconnect(): void {
    try {
      this.#listener?.onSubscriberReconnect();
    } catch {
      // Same as #deliver: the driver's event loop is no place for the listener's errors.
    }
  }
}

function keyOf(channel: string, sharded: boolean): string {
  return `${sharded ? 's' : 'c'}:${channel}`;
}

function isMoved(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('MOVED');
}

function ignore(): void {}

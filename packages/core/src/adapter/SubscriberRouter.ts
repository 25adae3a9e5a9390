import { InvalidArgumentError } from '../errors/LockError.js';
import type { ExecutorListener } from '../executor/Executor.js';
import { newChannelState, newIntent, whileWantedAt, type ChannelState, type Intent } from './ChannelState.js';
import { RerouteSchedule } from './RerouteSchedule.js';
import { checkTransition, type Transitions } from './statusTransition.js';
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

// How often a cluster subscription stranded on an unreachable node looks for its slot's new owner.
const RECHECK_MS = 1000;

/** Whether a {@link SubscriberRouter} takes subscriptions: `open` until it is closed, for good. */
export type RouterStatus = 'open' | 'closed';

/** Every status change a {@link SubscriberRouter} makes; any other is a bug. */
export const ROUTER_TRANSITIONS: Transitions<RouterStatus> = { open: ['closed'], closed: [] };

/**
 * Keeps every channel subscribed on the right node. Each channel goes to the connection of the
 * node that owns its slot (sharded pub/sub requires it; classic channels follow the same rule so
 * that both kinds move together). When a slot moves, or a node stays unreachable until its
 * replica takes over, the affected channels move to the new owner and the listener hears of a
 * reconnect, since messages may have been lost meanwhile.
 *
 * Subscribes, unsubscribes and moves of one channel never race each other: the router records
 * what it wants for the channel and one run at a time brings the links in line, step by step,
 * each step decided from what is wanted at that moment. A link says things to its server in
 * order, so the last thing the router said on a connection is what that server ends up with,
 * whatever order the replies come back in, and however late.
 */
export class SubscriberRouter {
  readonly #topology: Topology;
  readonly #channels = new Map<string, ChannelState>();
  readonly #links = new Map<string, Promise<SubscriberLink>>();
  // The links whose connection object exists: only they can have been asked for a channel.
  readonly #opened = new Map<string, SubscriberLink>();
  readonly #down = new Set<string>();
  readonly #suspects = new Set<string>();
  readonly #reroutes = new RerouteSchedule((refreshFirst) => this.#reroute(refreshFirst));
  #listener: ExecutorListener | undefined;
  #status: RouterStatus = 'open';
  // What close() returns, every time: the links' closing.
  #closing: Promise<void> = Promise.resolve();
  readonly #unwatch: () => void;

  constructor(topology: Topology) {
    this.#topology = topology;
    // The slot map the driver just reloaded may move channels whose node never said so (ioredis 5
    // mishandles the server's notice), so every reload is checked. It must not ask for another
    // reload, or the two would chase each other.
    this.#unwatch = topology.watch(() => {
      if (this.#channels.size > 0) this.#reroutes.request(0, false);
    });
  }

  /** Sets the one listener for messages and reconnects, replacing any earlier one. */
  listen(listener: ExecutorListener): void {
    // A second lock client on the same executor would silently take the first one's messages.
    if (this.#listener)
      throw new InvalidArgumentError('executor', 'is already used by a LockClient; create one executor per LockClient');
    this.#listener = listener;
  }

  /**
   * Subscribes a channel on the connection to its node, opening that connection if needed, and
   * resolves once that node's server confirmed.
   */
  async subscribe(channel: string, sharded: boolean): Promise<void> {
    if (this.#status === 'closed') throw new Error('The executor is closed');
    const key = keyOf(channel, sharded);
    let state = this.#channels.get(key);
    if (!state) {
      state = newChannelState(key, channel, sharded);
      this.#channels.set(key, state);
    }
    // Already wanted: the executor's caller counts references, so this is a repeat; share it.
    let want = state.want;
    if (want?.confirmed) return;
    if (!want) {
      want = newIntent();
      state.want = want;
      state.nudge?.();
    }
    void this.#reconcile(state);
    await want.done;
  }

  /**
   * Unsubscribes a channel; the connection stays open for the next subscription. Resolves once
   * the server confirmed, or at once when the connection is down or a step for the channel is
   * still in flight (that step's connection may never answer): the router undoes it when it
   * settles, in order on that connection.
   */
  async unsubscribe(channel: string, sharded: boolean): Promise<void> {
    const state = this.#channels.get(keyOf(channel, sharded));
    if (!state?.want) return;
    const want = state.want;
    state.want = undefined;
    // Its caller gave up before the server confirmed (ChannelHub's timeout).
    if (!want.confirmed) want.reject(new Error(`Unsubscribed from ${channel} before the subscription was confirmed`));
    state.nudge?.();
    const before = state.leaving;
    void this.#reconcile(state);
    // A run that was idle takes the channel back at once, here: wait for the server to confirm.
    if (state.leaving !== before) await state.leaving;
  }

  /** Closes every connection the router opened. Idempotent. */
  close(): Promise<void> {
    if (this.#status === 'closed') return this.#closing;
    this.#setStatus('closed');
    const closed = new Error('The executor is closed');
    const states = [...this.#channels.values()];
    this.#channels.clear();
    const links = [...this.#links.values()];
    this.#links.clear();
    this.#opened.clear();
    this.#closing = Promise.all(links.map((link) => link.then((opened) => opened.close()).catch(ignore))).then(
      () => undefined,
    );
    for (const state of states) {
      const want = state.want;
      state.want = undefined;
      if (want && !want.confirmed) want.reject(closed);
      // A step waiting on a connection stops waiting; the closed connections drop everything.
      state.nudge?.();
    }
    return this.#closing;
  }

  /** Starts a run for the channel unless one is under way; resolves when it ends. */
  #reconcile(state: ChannelState): Promise<void> {
    if (!state.running) {
      state.running = true;
      state.run = this.#drive(state);
    }
    return state.run;
  }

  async #drive(state: ChannelState): Promise<void> {
    for (;;) {
      const step = this.#status === 'closed' ? undefined : this.#nextStep(state);
      // `running` is cleared in the same synchronous stretch as the decision to stop, so a change
      // made in between cannot find a run that is no longer looking.
      if (step === undefined || !(await step)) break;
    }
    state.running = false;
    if (!state.want && state.placed === undefined && this.#channels.get(state.key) === state)
      this.#channels.delete(state.key);
  }

  /**
   * Decides and starts the next step from what is wanted now, or `undefined` when the links are
   * in line. A step resolves `false` when it failed in a way only a later recheck can fix.
   */
  #nextStep(state: ChannelState): Promise<boolean> | undefined {
    const { want, placed } = state;
    // Placed where it is no longer wanted; while its route is being looked up it may stay put.
    const misplaced =
      placed !== undefined && (want === undefined || (want.address !== undefined && want.address !== placed));
    if (misplaced) return this.#leave(state, placed);
    if (!want) return undefined;
    if (want.address === undefined) return this.#route(state, want);
    if (placed !== want.address || !state.confirmed || state.recheck) return this.#place(state, want, want.address);
    if (!want.confirmed) {
      want.confirmed = true;
      want.resolve();
    }
    return undefined;
  }

  /** Takes the channel back from a node: said at once, in order after whatever came before. */
  #leave(state: ChannelState, from: string): Promise<boolean> {
    state.placed = undefined;
    state.confirmed = false;
    // A link still opening was never asked for the channel: #place checks before it asks.
    const link = this.#opened.get(from);
    if (link) state.leaving = link.unsubscribe(state.channel, state.sharded).catch(ignore);
    return Promise.resolve(true);
  }

  async #route(state: ChannelState, want: Intent): Promise<boolean> {
    try {
      want.address = await this.#topology.nodeFor(state.channel);
    } catch (error) {
      this.#fail(state, want, error);
    }
    return true;
  }

  /** Subscribes the channel on the node it is wanted at, and waits for the server's answer. */
  async #place(state: ChannelState, want: Intent, to: string): Promise<boolean> {
    state.recheck = false;
    try {
      const opened = await whileWantedAt(state, to, this.#link(to));
      if (!opened.done) return true;
      const reply = opened.value.subscribe(state.channel, state.sharded);
      state.placed = to;
      state.confirmed = false;
      // Moved or left meanwhile: `placed` stays, and the next step takes it back from there.
      if ((await whileWantedAt(state, to, reply)).done) state.confirmed = true;
      return true;
    } catch (error) {
      // The link forgets a channel the server refused.
      if (state.placed === to) state.placed = undefined;
      return this.#placeFailed(state, want, to, error);
    }
  }

  async #placeFailed(state: ChannelState, want: Intent, to: string, error: unknown): Promise<boolean> {
    // Someone else's turn now (a newer subscription, or a reroute): the next step serves them.
    if (state.want !== want || want.address !== to) return true;
    if (want.confirmed) {
      // A move that failed: the channel stays wanted there, and the recheck tries again.
      this.#suspects.add(to);
      return false;
    }
    if (isMoved(error) && !want.retried) {
      // Our slot map was stale; the driver's refreshed one knows the new owner.
      want.retried = true;
      want.address = undefined;
      await this.#topology.refresh().catch((refreshError: unknown) => this.#fail(state, want, refreshError));
      return true;
    }
    this.#fail(state, want, error);
    return true;
  }

  /** Fails a subscription its caller still waits for. */
  #fail(state: ChannelState, want: Intent, error: unknown): void {
    if (state.want === want) state.want = undefined;
    want.reject(error);
    // A connection to a node that cannot be reached would otherwise retry forever for nobody.
    this.#closeIdleLinks();
  }

  #link(address: string): Promise<SubscriberLink> {
    if (this.#status === 'closed') return Promise.reject(new Error('The executor is closed'));
    const existing = this.#links.get(address);
    if (existing) return existing;
    const current = () => this.#links.get(address) === link;
    const link = this.#topology.open(address, {
      message: (channel, message) => this.#deliver(channel, message),
      lost: () => {
        if (!current()) return;
        this.#down.add(address);
        if (this.#topology.isCluster) this.#reroutes.request(RECHECK_MS, true);
      },
      restored: () => {
        if (!current()) return;
        this.#down.delete(address);
        this.#notifyReconnect();
      },
      moved: () => {
        if (!current()) return;
        this.#suspects.add(address);
        this.#reroutes.request(0, true);
      },
    });
    this.#links.set(address, link);
    // Registered before any caller's await, so a link is listed by the time anyone can use it.
    link.then(
      (opened) => {
        if (current()) this.#opened.set(address, opened);
      },
      // A node that cannot be reached now may be reachable on the next attempt.
      () => {
        if (current()) this.#links.delete(address);
      },
    );
    return link;
  }

  /** Moves every subscription whose slot changed owner, and re-checks those a node dropped. */
  async #reroute(refreshFirst: boolean): Promise<void> {
    const suspects = new Set(this.#suspects);
    this.#suspects.clear();
    if (refreshFirst) await this.#topology.refresh().catch(ignore);
    let retry = false;
    const moves: Promise<boolean>[] = [];
    for (const state of [...this.#channels.values()]) {
      if (this.#status === 'closed') return;
      const want = state.want;
      // Not routed yet: its own lookup reads the map just reloaded, and MOVED corrects it.
      if (want?.address === undefined) continue;
      const owner = await this.#topology.nodeFor(state.channel).catch(() => undefined);
      if (owner === undefined) {
        retry = true;
        continue;
      }
      if (state.want !== want || (owner === want.address && !suspects.has(owner))) continue;
      if (owner === want.address) state.recheck = true;
      want.address = owner;
      state.nudge?.();
      // In parallel: one slow node must not hold up the channels of the others.
      moves.push(this.#settle(state));
    }
    const results = await Promise.all(moves);
    this.#closeIdleLinks();
    if (results.includes(true) && this.#status === 'open') this.#notifyReconnect();
    const stranded = [...this.#channels.values()].some(
      (state) => state.want?.address !== undefined && this.#down.has(state.want.address),
    );
    if (retry || results.includes(false) || stranded) this.#reroutes.request(RECHECK_MS, true);
  }

  /** Brings a moved channel in line; `false` when it is not subscribed where it belongs. */
  async #settle(state: ChannelState): Promise<boolean> {
    await this.#reconcile(state);
    const want = state.want;
    return want === undefined || (state.placed === want.address && state.confirmed);
  }

  #closeIdleLinks(): void {
    const used = new Set<string>();
    for (const state of this.#channels.values()) {
      if (state.want?.address !== undefined) used.add(state.want.address);
      if (state.placed !== undefined) used.add(state.placed);
    }
    for (const [address, link] of this.#links) {
      if (used.has(address)) continue;
      this.#links.delete(address);
      this.#opened.delete(address);
      this.#down.delete(address);
      void link.then((opened) => opened.close()).catch(ignore);
    }
  }

  /** The one place the status changes: closing stops watching the slot map and rerouting. */
  #setStatus(next: RouterStatus): void {
    checkTransition('SubscriberRouter', ROUTER_TRANSITIONS, this.#status, next);
    this.#status = next;
    if (next === 'closed') {
      this.#unwatch();
      this.#reroutes.stop();
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

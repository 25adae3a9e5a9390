import { checkTransition, type Transitions } from './statusTransition.js';
import type { LinkEvents, SubscriberLink } from './SubscriberLink.js';

/**
 * Where a {@link DriverLink}'s connection stands: `connecting` until the driver's first 'ready';
 * `ready` while it is up; `reconnecting` from a loss until the next 'ready'; `restoring` while the
 * link subscribes its channels again after that 'ready'; `closed` for good.
 */
export type DriverLinkStatus = 'connecting' | 'ready' | 'reconnecting' | 'restoring' | 'closed';

/** Every status change a {@link DriverLink} makes; any other is a bug. */
export const DRIVER_LINK_TRANSITIONS: Transitions<DriverLinkStatus> = {
  // A loss before the first 'ready' is no loss of channels: the link waits for that 'ready'.
  connecting: ['ready', 'closed'],
  // A 'ready' no loss came before (the driver did not announce one) restores all the same.
  ready: ['reconnecting', 'restoring', 'closed'],
  reconnecting: ['restoring', 'closed'],
  // Another 'ready' while restoring restores again.
  restoring: ['ready', 'reconnecting', 'restoring', 'closed'],
  closed: [],
};

/**
 * What every adapter's {@link SubscriberLink} does the same way, whatever the driver: it keeps
 * the channels it wants, tells a reconnect from the first connection, reports a loss once and a
 * recovery only when the channels are back, and never waits on a connection that is down. An
 * adapter extends it with the driver's commands and calls {@link DriverLink.connectionReady} and
 * {@link DriverLink.connectionLost} from the driver's events. For adapter authors.
 */
export abstract class DriverLink implements SubscriberLink {
  protected readonly events: LinkEvents;
  /** The classic channels the link wants, whatever the connection's state. */
  protected readonly classic = new Set<string>();
  /** The sharded channels the link wants, whatever the connection's state. */
  protected readonly sharded = new Set<string>();
  #status: DriverLinkStatus = 'connecting';
  // Callers waiting for a reply or for the connection to drop, whichever comes first; each one
  // removes itself when its reply comes, so a healthy long-lived connection accumulates nothing.
  readonly #lossWaiters = new Set<() => void>();
  // The latest subscribe call per channel still waiting for its reply: the refusal of an earlier
  // one must not forget a channel a later call asked for again (the router may re-ask before the
  // first reply, e.g. a connection still connecting).
  readonly #latest = new Map<string, object>();

  constructor(events: LinkEvents) {
    this.events = events;
  }

  /** Where the connection stands; it changes only on the driver's events and {@link close}. */
  get status(): DriverLinkStatus {
    return this.#status;
  }

  /** `SUBSCRIBE` or `SSUBSCRIBE` on the driver's connection; rejects when the server refused. */
  protected abstract sendSubscribe(channel: string, sharded: boolean): Promise<unknown>;
  /** `UNSUBSCRIBE` or `SUNSUBSCRIBE` on the driver's connection. */
  protected abstract sendUnsubscribe(channel: string, sharded: boolean): Promise<unknown>;
  /**
   * After a reconnect, brings the connection's subscriptions in line with {@link classic} and
   * {@link sharded}, reporting `moved` for channels the server refused because their slot moved.
   * The link reports the recovery once this settles, unless the connection dropped meanwhile.
   */
  protected abstract restore(): Promise<unknown>;
  /** Closes the driver's connection at once. */
  protected abstract closeConnection(): void;

  async subscribe(channel: string, sharded: boolean): Promise<void> {
    const channels = sharded ? this.sharded : this.classic;
    channels.add(channel);
    const key = `${sharded ? 's' : 'c'}:${channel}`;
    const call = {};
    this.#latest.set(key, call);
    try {
      await this.sendSubscribe(channel, sharded);
    } catch (error) {
      if (this.#latest.get(key) === call) channels.delete(channel);
      throw error;
    } finally {
      if (this.#latest.get(key) === call) this.#latest.delete(key);
    }
  }

  async unsubscribe(channel: string, sharded: boolean): Promise<void> {
    if (!(sharded ? this.sharded : this.classic).delete(channel)) return;
    // A lost connection took the subscription with it, and the channel is not restored: done.
    // Waiting for the reply instead could take until the server is back.
    const reply = this.sendUnsubscribe(channel, sharded).catch(ignore);
    if (this.#up) await this.#untilLoss(reply);
  }

  close(): Promise<void> {
    if (this.#status !== 'closed') {
      this.#setStatus('closed');
      this.closeConnection();
    }
    return Promise.resolve();
  }

  /** Call on the driver's 'ready': the first one opens the link, later ones are reconnects. */
  protected async connectionReady(): Promise<void> {
    if (this.#status === 'closed') return;
    if (this.#status === 'connecting') {
      this.#setStatus('ready');
      return;
    }
    this.#setStatus('restoring');
    await this.#untilLoss(this.restore().catch(ignore));
    // Dropped again meanwhile: the next 'ready' restores and reports.
    if (this.#status === 'restoring') this.#setStatus('ready');
  }

  /** Call on each of the driver's signs of a dropped connection; reports the loss once. */
  protected connectionLost(): void {
    if (this.#up) this.#setStatus('reconnecting');
  }

  /** Whether the connection is up: a reply may come, unless it drops first. */
  get #up(): boolean {
    return this.#status === 'ready' || this.#status === 'restoring';
  }

  /**
   * The one place the status changes, and the one place the loss and the recovery are reported:
   * the loss once per connection that was up, the recovery once its channels are back.
   */
  #setStatus(next: DriverLinkStatus): void {
    const previous = this.#status;
    checkTransition('DriverLink', DRIVER_LINK_TRANSITIONS, previous, next);
    this.#status = next;
    if (next === 'reconnecting' || next === 'closed') this.#settleLoss();
    if (next === 'reconnecting') this.events.lost();
    else if (previous === 'restoring' && next === 'ready') this.events.restored();
  }

  /** Resolves when `work` settles or the connection drops, whichever comes first. */
  #untilLoss(work: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#lossWaiters.delete(done);
        resolve();
      };
      this.#lossWaiters.add(done);
      work.then(done, done);
    });
  }

  #settleLoss(): void {
    for (const done of [...this.#lossWaiters]) done();
  }
}

function ignore(): void {}

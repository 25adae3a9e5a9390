import { DriverLink, type LinkEvents } from '@deadbolt/core/adapter';
import { Decoder, type GlideClusterClient } from '@valkey/valkey-glide';
import type { ValkeyGlideSubscriber } from './clientTypes.js';
import {
  clusterEpochIfAllowed,
  connectionIds,
  subscribedChannels,
  type SubscribedChannels,
} from './subscriberState.js';
import { decodeSubscribePermission, subscribePermissionCall, subscribeRefusal } from './subscribePermission.js';

/** How often the link looks at its client's connections and subscriptions. */
export const PROBE_MS = 250;
/** How long one `SUBSCRIBE`/`SSUBSCRIBE` or `UNSUBSCRIBE` waits for the server's confirmation. */
const CONFIRM_MS = 10_000;
/**
 * How long a subscription may go unconfirmed before the link asks the server whether the ACL user
 * may subscribe at all: GLIDE retries a refused SUBSCRIBE without telling its caller.
 */
export const PERMISSION_CHECK_MS = 1_000;

/**
 * A subscriber link over a GLIDE client of its own, with every channel on it (GLIDE sends each to
 * the node that serves it, and moves it when its slot moves). GLIDE restores subscriptions by
 * itself but announces neither a lost connection nor a recovery, so the link watches: every
 * {@link PROBE_MS} it reads the id of each of the client's connections (`CLIENT ID` on every node)
 * and the channels GLIDE actually holds. A connection whose id changed was lost and is back, one
 * recovery each, reported once the channels are subscribed again; a probe that fails, or a
 * confirmed channel that is no longer subscribed (its slot moved, its server is down), is a loss
 * that lasts until the probe sees every channel back.
 *
 * On a cluster it also reads the cluster's epoch, which a failover raises. When a slot moves, its
 * old server drops the sharded channels of that slot and GLIDE subscribes them on the new one,
 * often within one probe's interval, so no probe sees them missing; messages published between the
 * two are lost all the same. A raised epoch is therefore a loss too, recovered at the next probe
 * that sees every channel held.
 */
export class GlideLink extends DriverLink {
  readonly #client: ValkeyGlideSubscriber;
  readonly #cluster: boolean;
  // Channels whose subscribe or unsubscribe is still waiting for the server: not yet expected to match.
  readonly #pending = new Set<string>();
  #ids: ReadonlyMap<string, number>;
  // The highest cluster epoch read so far; undefined on a standalone server, or before one was read.
  #epoch: number | undefined;
  #timer: NodeJS.Timeout | undefined;

  /**
   * @param ids - the client's connection ids right after it connected (see `connectionIds`), so
   *   that a connection replaced before the first probe counts too
   * @param epoch - on a cluster, its epoch read right after the client connected (see
   *   `clusterEpochIfAllowed`), so that a failover before the first probe counts too
   */
  constructor(
    client: ValkeyGlideSubscriber,
    cluster: boolean,
    ids: ReadonlyMap<string, number>,
    epoch: number | undefined,
    events: LinkEvents,
  ) {
    super(events);
    this.#client = client;
    this.#cluster = cluster;
    this.#ids = ids;
    this.#epoch = epoch;
    // The client is connected: this is the first 'ready'.
    void this.connectionReady();
    this.#schedule();
  }

  protected async sendSubscribe(channel: string, sharded: boolean): Promise<void> {
    const key = keyOf(channel, sharded);
    this.#pending.add(key);
    try {
      const confirmed = sharded
        ? this.#sharded().ssubscribe([channel], CONFIRM_MS)
        : this.#client.subscribe([channel], CONFIRM_MS);
      await this.#confirmedOrRefused(confirmed, channel, sharded);
    } catch (error) {
      // GLIDE keeps wanting a channel whose confirmation timed out, and would subscribe it later;
      // a refused channel is given up the same way.
      const undo = sharded ? this.#sharded().sunsubscribeLazy([channel]) : this.#client.unsubscribeLazy([channel]);
      await undo.catch(ignore);
      throw error;
    } finally {
      this.#pending.delete(key);
    }
  }

  protected async sendUnsubscribe(channel: string, sharded: boolean): Promise<void> {
    const key = keyOf(channel, sharded);
    this.#pending.add(key);
    try {
      // GLIDE stops wanting the channel at once, so a reconnect does not restore it; the reply is
      // the server's confirmation.
      await (sharded
        ? this.#sharded().sunsubscribe([channel], CONFIRM_MS)
        : this.#client.unsubscribe([channel], CONFIRM_MS));
    } finally {
      this.#pending.delete(key);
    }
  }

  /** GLIDE subscribes again by itself: the channels are back once it holds every one of them. */
  protected async restore(): Promise<void> {
    while (this.status !== 'closed') {
      const actual = await subscribedChannels(this.#client).catch(() => undefined);
      if (actual !== undefined && this.#missing(actual) === 0) return;
      await sleep(PROBE_MS / 5);
    }
  }

  protected closeConnection(): void {
    clearTimeout(this.#timer);
    this.#client.close();
  }

  #sharded(): GlideClusterClient {
    if (!this.#cluster)
      throw new Error(
        'Valkey GLIDE has no sharded pub/sub on a standalone GlideClient; use classic pub/sub (the `auto` default on a standalone server)',
      );
    return this.#client as GlideClusterClient;
  }

  /**
   * Settles as `confirmed` does, unless the subscription is still unconfirmed after
   * {@link PERMISSION_CHECK_MS} and the server says the ACL user may not make it: then it rejects
   * with the `NOPERM` error the server gave GLIDE.
   */
  #confirmedOrRefused(confirmed: Promise<unknown>, channel: string, sharded: boolean): Promise<void> {
    let check: NodeJS.Timeout | undefined;
    const refused = new Promise<never>((_resolve, reject) => {
      check = setTimeout(() => {
        this.#subscribeRefusal(channel, sharded).then((refusal) => {
          if (refusal) reject(refusal);
        }, ignore);
      }, PERMISSION_CHECK_MS);
      check.unref();
    });
    const subscribed = confirmed.then(
      () => undefined,
      (error: unknown) => {
        if (error === undefined || error === null) throw new Error(`subscription to ${channel} failed`);
        throw error;
      },
    );
    return Promise.race([subscribed, refused]).finally(() => clearTimeout(check));
  }

  async #subscribeRefusal(channel: string, sharded: boolean): Promise<Error | undefined> {
    const ask = subscribePermissionCall({ channel, sharded });
    const reply = this.#cluster
      ? await (this.#client as GlideClusterClient).customCommand(ask, {
          decoder: Decoder.String,
          route: { type: 'primarySlotKey', key: channel },
        })
      : await this.#client.customCommand(ask, { decoder: Decoder.String });
    return subscribeRefusal(decodeSubscribePermission(reply), sharded);
  }

  #schedule(): void {
    if (this.status === 'closed') return;
    this.#timer = setTimeout(() => void this.#probe().finally(() => this.#schedule()), PROBE_MS);
    // The probe must not keep the process alive on its own.
    this.#timer.unref();
  }

  async #probe(): Promise<void> {
    let ids: ReadonlyMap<string, number>;
    let actual: SubscribedChannels;
    let epoch: number | undefined;
    try {
      [ids, actual, epoch] = await Promise.all([
        connectionIds(this.#client, this.#cluster),
        subscribedChannels(this.#client),
        this.#cluster ? clusterEpochIfAllowed(this.#client) : undefined,
      ]);
    } catch {
      this.connectionLost();
      return;
    }
    if (this.status === 'closed') return;
    // Only a rise counts: a node that has not heard of the newest epoch yet reports an older one.
    const failedOver = epoch !== undefined && this.#epoch !== undefined && epoch > this.#epoch;
    if (epoch !== undefined && (this.#epoch === undefined || epoch > this.#epoch)) this.#epoch = epoch;
    const previous = this.#ids;
    this.#ids = ids;
    // One loss and one recovery per connection that is not the one seen last time.
    let replaced = 0;
    for (const [node, id] of ids) if (previous.has(node) && previous.get(node) !== id) replaced++;
    const missing = this.#missing(actual);
    for (let i = 0; i < replaced; i++) {
      this.connectionLost();
      // The last one is reported below, once every channel is back.
      if (i < replaced - 1) await this.#recover();
    }
    if (missing > 0 || failedOver) this.connectionLost();
    else await this.#recover();
  }

  async #recover(): Promise<void> {
    // The link is up already, or closed.
    if (this.status !== 'reconnecting') return;
    await this.connectionReady();
  }

  /** How many channels the link wants, and the server confirmed once, that GLIDE does not hold. */
  #missing(actual: SubscribedChannels): number {
    let missing = 0;
    for (const channel of this.classic)
      if (!this.#pending.has(keyOf(channel, false)) && !actual.classic.has(channel)) missing++;
    for (const channel of this.sharded)
      if (!this.#pending.has(keyOf(channel, true)) && !actual.sharded.has(channel)) missing++;
    return missing;
  }
}

function keyOf(channel: string, sharded: boolean): string {
  return `${sharded ? 's' : 'c'}:${channel}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function ignore(): void {}

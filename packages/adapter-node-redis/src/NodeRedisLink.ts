import type { NodeRedisPubSubListener, NodeRedisSubscriberClient } from './clientTypes.js';
import type { LinkEvents, SubscriberLink } from '@deadbolt/core';

/**
 * A subscriber link over a node-redis connection. node-redis restores subscriptions itself while
 * reconnecting, before it emits 'ready', so a 'ready' after the first one means the channels are
 * back. It restores what its own bookkeeping holds, though, and that forgets a channel only when
 * the server confirms the unsubscribe; so after a reconnect the link unsubscribes again whatever
 * it no longer wants.
 */
export class NodeRedisLink implements SubscriberLink {
  readonly #client: NodeRedisSubscriberClient;
  readonly #events: LinkEvents;
  // One callback for every channel, so that unsubscribing removes exactly what we added.
  readonly #onMessage: NodeRedisPubSubListener;
  readonly #classic = new Set<string>();
  readonly #sharded = new Set<string>();
  #wasReady = false;
  #up = false;
  #closed = false;
  // Waiters for the next connection loss.
  readonly #onLoss: (() => void)[] = [];

  constructor(client: NodeRedisSubscriberClient, events: LinkEvents) {
    this.#client = client;
    this.#events = events;
    this.#onMessage = (message, channel) => events.message(channel, message);
    // node-redis reconnects by itself and every failed command rejects its own promise; without
    // a listener a dropped connection would become an unhandled 'error' event.
    client.on('error', ignore);
    client.on('ready', () => void this.#onReady());
    client.on('reconnecting', () => this.#onLost());
    client.on('end', () => this.#onLost());
    // The server dropped a sharded channel whose slot migrated; node-redis forgot its callback.
    client.on('sharded-channel-moved', () => events.moved());
    // Resubscribing after a reconnect met MOVED: node-redis dropped every callback of the link.
    client.on('__MOVED', () => events.moved());
    // Connects in the background; commands queue meanwhile, and a first connection that fails is
    // retried by the client's reconnect strategy.
    client.connect().catch(ignore);
  }

  async subscribe(channel: string, sharded: boolean): Promise<void> {
    const channels = sharded ? this.#sharded : this.#classic;
    channels.add(channel);
    try {
      await (sharded ? this.#client.sSubscribe(channel, this.#onMessage) : this.#client.subscribe(channel, this.#onMessage));
    } catch (error) {
      channels.delete(channel);
      // node-redis keeps the callback of a refused subscription and would restore it.
      this.#send(channel, sharded).catch(ignore);
      throw error;
    }
  }

  async unsubscribe(channel: string, sharded: boolean): Promise<void> {
    if (!(sharded ? this.#sharded : this.#classic).delete(channel)) return;
    // UNSUBSCRIBE fails only with the connection, which takes the subscription with it; what
    // node-redis restores afterwards is dropped again on 'ready'. So either outcome is done, and
    // waiting for a reply while the connection is down could take until the server is back.
    const reply = this.#send(channel, sharded).catch(ignore);
    if (this.#up) await Promise.race([reply, this.#nextLoss()]);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const resolve of this.#onLoss.splice(0)) resolve();
    try {
      this.#client.destroy();
    } catch {
      // Already closed by the driver.
    }
    return Promise.resolve();
  }

  async #onReady(): Promise<void> {
    this.#up = true;
    if (!this.#wasReady) {
      this.#wasReady = true;
      return;
    }
    if (this.#closed) return;
    const unwanted: Promise<void>[] = [];
    for (const [type, wanted] of [['CHANNELS', this.#classic], ['SHARDED', this.#sharded]] as const) {
      for (const channel of this.#client.getPubSubListeners(type).keys()) {
        if (!wanted.has(channel)) unwanted.push(this.#send(channel, type === 'SHARDED'));
      }
    }
    await Promise.race([Promise.allSettled(unwanted), this.#nextLoss()]);
    // Dropped again meanwhile: the next 'ready' reports.
    if (this.#up && !this.#closed) this.#events.restored();
  }

  #send(channel: string, sharded: boolean): Promise<void> {
    return sharded ? this.#client.sUnsubscribe(channel, this.#onMessage) : this.#client.unsubscribe(channel, this.#onMessage);
  }

  #onLost(): void {
    if (!this.#up || this.#closed) return;
    this.#up = false;
    for (const resolve of this.#onLoss.splice(0)) resolve();
    this.#events.lost();
  }

  #nextLoss(): Promise<void> {
    return new Promise((resolve) => this.#onLoss.push(resolve));
  }
}

function ignore(): void {}

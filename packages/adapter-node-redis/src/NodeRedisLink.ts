import type { NodeRedisPubSubListener, NodeRedisSubscriberClient } from './clientTypes.js';
import { DriverLink, type LinkEvents } from '@deadbolt/core/adapter';

/**
 * A subscriber link over a node-redis connection. node-redis restores subscriptions itself while
 * reconnecting, before it emits 'ready', so a 'ready' after the first one means the channels are
 * back. It restores what its own bookkeeping holds, though, and that forgets a channel only when
 * the server confirms the unsubscribe; so after a reconnect the link unsubscribes again whatever
 * it no longer wants.
 */
export class NodeRedisLink extends DriverLink {
  readonly #client: NodeRedisSubscriberClient;
  // One callback for every channel, so that unsubscribing removes exactly what we added.
  readonly #onMessage: NodeRedisPubSubListener;
  // Settles once the first connection attempt ends, however it ends.
  readonly #connecting: Promise<unknown>;

  constructor(client: NodeRedisSubscriberClient, events: LinkEvents) {
    super(events);
    this.#client = client;
    this.#onMessage = (message, channel) => events.message(channel, message);
    // node-redis reconnects by itself and every failed command rejects its own promise; without
    // a listener a dropped connection would become an unhandled 'error' event.
    client.on('error', ignore);
    client.on('ready', () => void this.connectionReady());
    client.on('reconnecting', () => this.connectionLost());
    client.on('end', () => this.connectionLost());
    // The server dropped a sharded channel whose slot migrated; node-redis forgot its callback.
    client.on('sharded-channel-moved', () => events.moved());
    // Resubscribing after a reconnect met MOVED: node-redis dropped every callback of the link.
    client.on('__MOVED', () => events.moved());
    // Connects in the background; commands queue meanwhile, and a first connection that fails is
    // retried by the client's reconnect strategy.
    this.#connecting = client.connect().catch(ignore);
  }

  protected async sendSubscribe(channel: string, sharded: boolean): Promise<void> {
    try {
      await (sharded
        ? this.#client.sSubscribe(channel, this.#onMessage)
        : this.#client.subscribe(channel, this.#onMessage));
    } catch (error) {
      // node-redis keeps the callback of a refused subscription and would restore it.
      this.sendUnsubscribe(channel, sharded).catch(ignore);
      throw error;
    }
  }

  // UNSUBSCRIBE fails only with the connection, which takes the subscription with it; what
  // node-redis restores afterwards is dropped again by restore().
  protected sendUnsubscribe(channel: string, sharded: boolean): Promise<void> {
    return sharded
      ? this.#client.sUnsubscribe(channel, this.#onMessage)
      : this.#client.unsubscribe(channel, this.#onMessage);
  }

  protected restore(): Promise<unknown> {
    const unwanted: Promise<void>[] = [];
    for (const [type, wanted] of [
      ['CHANNELS', this.classic],
      ['SHARDED', this.sharded],
    ] as const) {
      for (const channel of this.#client.getPubSubListeners(type).keys()) {
        if (!wanted.has(channel)) unwanted.push(this.sendUnsubscribe(channel, type === 'SHARDED'));
      }
    }
    return Promise.allSettled(unwanted);
  }

  protected closeConnection(): void {
    this.#destroy();
    // node-redis 6 may still finish a connection destroyed while it was opening (and send what was
    // queued on it): destroy it again once that attempt is over.
    void this.#connecting.then(() => this.#destroy());
  }

  #destroy(): void {
    try {
      this.#client.destroy();
    } catch {
      // Already closed by the driver.
    }
  }
}

function ignore(): void {}

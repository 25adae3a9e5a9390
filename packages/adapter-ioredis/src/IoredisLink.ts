import type { Redis } from 'ioredis';
import type { LinkEvents, SubscriberLink } from '@deadbolt/core';

/**
 * A subscriber link over an ioredis connection created with `autoResubscribe: false`: the link
 * restores its channels itself after a reconnect, so that it knows when they are back and can
 * report the recovery only then.
 */
export class IoredisLink implements SubscriberLink {
  readonly #redis: Redis;
  readonly #events: LinkEvents;
  readonly #classic = new Set<string>();
  readonly #sharded = new Set<string>();
  #wasReady = false;
  #up = false;
  #closed = false;
  // Waiters for the next connection loss.
  readonly #onLoss: (() => void)[] = [];

  constructor(redis: Redis, events: LinkEvents) {
    this.#redis = redis;
    this.#events = events;
    // The driver reconnects by itself and every failed command rejects its own promise; without a
    // listener a dropped connection would become an unhandled 'error' event.
    redis.on('error', (error: Error) => {
      // ioredis 5 reports the server's unsolicited SUNSUBSCRIBE (the slot migrated) only this way.
      if (error.message.startsWith('Command queue state error') && error.message.includes('sunsubscribe')) events.moved();
    });
    redis.on('message', (channel: string, message: string) => events.message(channel, message));
    redis.on('smessage', (channel: string, message: string) => events.message(channel, message));
    redis.on('ready', () => void this.#onReady());
    redis.on('close', () => this.#onClose());
    // ioredis 6 emits 'moved' when the server drops a sharded channel whose slot migrated.
    redis.on('moved', () => events.moved());
  }

  async subscribe(channel: string, sharded: boolean): Promise<void> {
    const channels = sharded ? this.#sharded : this.#classic;
    channels.add(channel);
    try {
      await (sharded ? this.#redis.ssubscribe(channel) : this.#redis.subscribe(channel));
    } catch (error) {
      channels.delete(channel);
      throw error;
    }
  }

  async unsubscribe(channel: string, sharded: boolean): Promise<void> {
    if (!(sharded ? this.#sharded : this.#classic).delete(channel)) return;
    const reply = sharded ? this.#redis.sunsubscribe(channel) : this.#redis.unsubscribe(channel);
    reply.catch(ignore);
    // A lost connection took the subscription with it, and the channel is not restored: done.
    // Waiting for the reply instead could take until the server is back.
    if (this.#up) await Promise.race([reply, this.#nextLoss()]);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const resolve of this.#onLoss.splice(0)) resolve();
    // Not waiting for 'end': ioredis never emits it for a connection waiting to reconnect.
    this.#redis.disconnect();
    return Promise.resolve();
  }

  async #onReady(): Promise<void> {
    this.#up = true;
    if (!this.#wasReady) {
      this.#wasReady = true;
      return;
    }
    const replies: Promise<unknown>[] = [];
    if (this.#classic.size > 0) replies.push(this.#redis.subscribe(...this.#classic));
    // One command per sharded channel: SSUBSCRIBE refuses channels of different slots together.
    for (const channel of this.#sharded) replies.push(this.#redis.ssubscribe(channel));
    const results = await Promise.allSettled(replies);
    // Dropped again meanwhile: the next 'ready' restores and reports.
    if (this.#closed || !this.#up) return;
    if (results.some((result) => result.status === 'rejected' && isMoved(result.reason))) this.#events.moved();
    this.#events.restored();
  }

  #onClose(): void {
    if (!this.#up || this.#closed) return;
    this.#up = false;
    for (const resolve of this.#onLoss.splice(0)) resolve();
    this.#events.lost();
  }

  #nextLoss(): Promise<void> {
    return new Promise((resolve) => this.#onLoss.push(resolve));
  }
}

function isMoved(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('MOVED');
}

function ignore(): void {}

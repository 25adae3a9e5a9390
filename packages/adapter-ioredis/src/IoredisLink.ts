import type { Redis } from 'ioredis';
import { DriverLink, type LinkEvents } from '@deadbolt/core/adapter';

/**
 * A subscriber link over an ioredis connection created with `autoResubscribe: false`: the link
 * restores its channels itself after a reconnect, so that it knows when they are back and can
 * report the recovery only then.
 */
export class IoredisLink extends DriverLink {
  readonly #redis: Redis;

  constructor(redis: Redis, events: LinkEvents) {
    super(events);
    this.#redis = redis;
    // The driver reconnects by itself and every failed command rejects its own promise; without a
    // listener a dropped connection would become an unhandled 'error' event.
    redis.on('error', (error: Error) => {
      // ioredis 5 reports the server's unsolicited SUNSUBSCRIBE (the slot migrated) only this way.
      if (error.message.startsWith('Command queue state error') && error.message.includes('sunsubscribe'))
        events.moved();
    });
    redis.on('message', (channel: string, message: string) => events.message(channel, message));
    redis.on('smessage', (channel: string, message: string) => events.message(channel, message));
    redis.on('ready', () => void this.connectionReady());
    redis.on('close', () => this.connectionLost());
    // ioredis 6 emits 'moved' when the server drops a sharded channel whose slot migrated.
    redis.on('moved', () => events.moved());
  }

  protected sendSubscribe(channel: string, sharded: boolean): Promise<unknown> {
    return sharded ? this.#redis.ssubscribe(channel) : this.#redis.subscribe(channel);
  }

  protected sendUnsubscribe(channel: string, sharded: boolean): Promise<unknown> {
    return sharded ? this.#redis.sunsubscribe(channel) : this.#redis.unsubscribe(channel);
  }

  protected async restore(): Promise<void> {
    const replies: Promise<unknown>[] = [];
    if (this.classic.size > 0) replies.push(this.#redis.subscribe(...this.classic));
    // One command per sharded channel: SSUBSCRIBE refuses channels of different slots together.
    for (const channel of this.sharded) replies.push(this.#redis.ssubscribe(channel));
    const results = await Promise.allSettled(replies);
    if (results.some((result) => result.status === 'rejected' && isMoved(result.reason))) this.events.moved();
  }

  protected closeConnection(): void {
    // Not waiting for 'end': ioredis never emits it for a connection waiting to reconnect.
    this.#redis.disconnect();
  }
}

function isMoved(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('MOVED');
}

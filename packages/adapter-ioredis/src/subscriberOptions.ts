import type { RedisOptions } from 'ioredis';

/** Options for the connections the adapter opens, on top of a copy of the user's client options. */
export function subscriberOptions(name: string): RedisOptions {
  return {
    connectionName: name,
    // IoredisLink restores subscriptions itself, to know when they are back.
    autoResubscribe: false,
    lazyConnect: false,
    enableOfflineQueue: true,
    // The user's strategy may give up; a subscriber that gives up would leave waiters on timeouts
    // for good, so it keeps trying with a capped backoff.
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    // Channel names are used as given: a key prefix would make SSUBSCRIBE and SUBSCRIBE differ.
    keyPrefix: '',
  };
}

/**
 * What a message on a channel means to its local waiters: wake `one`, wake `all`, wake those
 * that the `permits` now available can serve (in the order they fell asleep, each counting what
 * it asked for: see `ChannelSubscription.sleep`), or nothing (`undefined`). Given by the kind
 * whose waiters join the channel: a lock's releases say `0` or `1`, a Redisson semaphore's the
 * permits now available.
 */
export type WakeRule = (message: string) => 'one' | 'all' | { readonly permits: number } | undefined;

/** The locks' rule (Redisson's `LockPubSub`): `0` wakes one waiter, `1` wakes them all. */
export const LOCK_WAKES: WakeRule = (message) => (message === '0' ? 'one' : message === '1' ? 'all' : undefined);

/**
 * The message that wakes every waiter, as Redisson's `LockPubSub.READ_UNLOCK_MESSAGE`: the end of
 * write mode lets all waiting readers in at once.
 */
export const READ_UNLOCK_MESSAGE = 1;

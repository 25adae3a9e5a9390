/** The message that wakes one waiter: Redisson's `LockPubSub.UNLOCK_MESSAGE`. */
export const UNLOCK_MESSAGE = 0;

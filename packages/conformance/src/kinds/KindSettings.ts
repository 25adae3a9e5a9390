/** Settings a suite builds its locks with; a kind ignores those it has no use for. Defaults: the libraries'. */
export interface KindSettings {
  /** The `waiterTimeout` of every fair lock built, a group's fair members included. */
  readonly fairWaiterTimeout?: number;
}

/**
 * A fair-lock waiter may go unseen for 1 s before the waiters behind it skip it: a waiter process
 * a suite kills holds its queue up for a second, not Redisson's five minutes.
 */
export const SHORT_WAITER_TIMEOUT: KindSettings = { fairWaiterTimeout: 1_000 };

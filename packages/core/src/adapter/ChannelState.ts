/**
 * One subscribe call to the router, waiting for the server's confirmation on the node the
 * channel belongs on.
 */
export interface Intent {
  /** The node the channel belongs on; `undefined` until looked up (again, after a MOVED). */
  address: string | undefined;
  /** Whether a MOVED refusal already sent it through a slot map reload; once is enough. */
  retried: boolean;
  /**
   * Whether the server confirmed it once. A confirmed subscription whose move to a new owner
   * fails stays wanted and is retried later; an unconfirmed one fails its caller instead.
   */
  confirmed: boolean;
  /** Settles when the subscription is confirmed, or fails. */
  readonly done: Promise<void>;
  /** Tells the caller the server confirmed. */
  readonly resolve: () => void;
  /** Tells the caller the subscription failed, was closed, or was given up before it was confirmed. */
  readonly reject: (error: unknown) => void;
}

/**
 * What the router wants for one channel and what it last told the links about it. The router
 * brings the second in line with the first one step at a time, deciding each step from the
 * state at that moment, so that a reply to an earlier step never undoes a later decision.
 */
export interface ChannelState {
  readonly key: string;
  readonly channel: string;
  readonly sharded: boolean;
  /** The subscription the waiters want, or none. */
  want: Intent | undefined;
  /**
   * The node whose link was last asked to subscribe and not since to unsubscribe, or none: the
   * only node that may hold the channel.
   */
  placed: string | undefined;
  /** Whether the server confirmed the subscription at {@link ChannelState.placed}. */
  confirmed: boolean;
  /** The node dropped or refused the channel: subscribe again even where it is placed. */
  recheck: boolean;
  /** Whether a run is bringing the links in line; only one at a time per channel. */
  running: boolean;
  /** The latest run, for those who wait for the channel to settle. */
  run: Promise<void>;
  /** The server's reply to the latest unsubscribe, for the unsubscribe call that caused it. */
  leaving: Promise<void> | undefined;
  /** Tells the step in flight that {@link ChannelState.want} changed. */
  nudge: (() => void) | undefined;
}

/** A fresh subscribe call's intent. */
export function newIntent(): Intent {
  let resolve: () => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const done = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A caller that gave up (its subscribe timed out) no longer listens for the outcome.
  done.catch(() => undefined);
  return { address: undefined, retried: false, confirmed: false, done, resolve, reject };
}

/** A channel the router knows nothing about yet. */
export function newChannelState(key: string, channel: string, sharded: boolean): ChannelState {
  return {
    key,
    channel,
    sharded,
    want: undefined,
    placed: undefined,
    confirmed: false,
    recheck: false,
    running: false,
    run: Promise.resolve(),
    leaving: undefined,
    nudge: undefined,
  };
}

/**
 * Resolves `{ done: true, value }` when `work` does, or `{ done: false }` as soon as the channel
 * is no longer wanted at `address` (the waiter left, or a reroute moved it), so that a step never
 * waits on a node the channel has left: a connection still connecting to a node that failed may
 * take forever. Rejects when `work` does while the channel is still wanted there.
 */
export function whileWantedAt<T>(
  state: ChannelState,
  address: string,
  work: Promise<T>,
): Promise<{ done: true; value: T } | { done: false }> {
  return new Promise((resolve, reject) => {
    const nudge = () => {
      if (state.want?.address === address) return;
      state.nudge = undefined;
      resolve({ done: false });
    };
    const settle = () => {
      if (state.nudge === nudge) state.nudge = undefined;
    };
    state.nudge = nudge;
    work.then(
      (value) => {
        settle();
        resolve({ done: true, value });
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

import type { Delay } from './delay.js';
import type { HoldOptions, RequestHold } from './request-hold.js';
import type { CutOptions, RequestMatch, RequestRule } from './request-rule.js';

/** A direction through the proxy: `toServer` is client to Redis, `toClient` Redis to client. */
export type ProxyDirection = 'toServer' | 'toClient';

/** What a fault proxy has done so far. Every count only grows. */
export interface ProxyCounters {
  /** Client connections accepted and forwarded (not those refused during a partition). */
  readonly connectionsAccepted: number;
  /** Client connections closed on arrival because a partition was in force. */
  readonly connectionsRefused: number;
  /** Requests cut: forwarded, run by Redis, reply swallowed, both sockets destroyed. */
  readonly requestsCut: number;
  /** Requests held back by a hold rule, each on a connection to Redis kept open for it. */
  readonly requestsHeld: number;
  /** Held requests delivered late, whose reply came back (to the test, not the client). */
  readonly requestsDelivered: number;
  /** Partitions begun (a cut rule's `partitionMs` included). */
  readonly partitions: number;
  /** Calls of `reset()`: every connection destroyed at once. */
  readonly resets: number;
}

/** All zero. */
export const NO_COUNTS: ProxyCounters = {
  connectionsAccepted: 0,
  connectionsRefused: 0,
  requestsCut: 0,
  requestsHeld: 0,
  requestsDelivered: 0,
  partitions: 0,
  resets: 0,
};

/** Adds counters up, e.g. over a cluster's proxies. */
export function addCounters(counters: readonly ProxyCounters[]): ProxyCounters {
  const sum = (field: keyof ProxyCounters) => counters.reduce((total, each) => total + each[field], 0);
  return {
    connectionsAccepted: sum('connectionsAccepted'),
    connectionsRefused: sum('connectionsRefused'),
    requestsCut: sum('requestsCut'),
    requestsHeld: sum('requestsHeld'),
    requestsDelivered: sum('requestsDelivered'),
    partitions: sum('partitions'),
    resets: sum('resets'),
  };
}

/** Options of {@link FaultControls.partition}. */
export interface PartitionOptions {
  /** Heal by itself after this many milliseconds. Default: stay partitioned until `heal()`. */
  readonly durationMs?: number;
}

/**
 * The faults a test can inject at run time, on one proxy ({@link FaultProxy}) or on every proxy
 * of a group ({@link ProxyGroup}) at once.
 */
export interface FaultControls {
  /** What was done so far (summed over a group). */
  readonly counters: ProxyCounters;
  /** `true` while partitioned (for a group: while any of its proxies is). */
  readonly partitioned: boolean;
  /**
   * Delays every chunk forwarded from now on by `delay` (a number is milliseconds), in
   * `directions` (both by default). Order is kept: a chunk never overtakes an earlier one.
   * `setLatency(0)` removes it.
   */
  setLatency(delay: number | Delay, directions?: readonly ProxyDirection[]): void;
  /**
   * Arms a rule that cuts the next `times` (default 1) requests matching `options` after Redis ran
   * them: see {@link RequestRule}. The rule stays in force (counting) until cancelled or cleared.
   */
  cutAfterRequest(options: CutOptions): RequestRule;
  /**
   * Arms a rule that holds the next `times` (default 1) requests matching `options` back from
   * Redis, closes the client's side of their connections, and keeps each one's connection to
   * Redis open until the test calls `deliver()` on the rule: the request then reaches Redis late,
   * on its old connection, after whatever the client did meanwhile. See {@link RequestHold}.
   */
  holdRequest(options: HoldOptions): RequestHold;
  /** A rule that only counts matching requests and their replies, for waiting on a re-send. */
  watchRequests(match: RequestMatch): RequestRule;
  /** Cancels every rule armed so far. */
  clearRules(): void;
  /**
   * Destroys every current connection and closes every new one on arrival until healed, so that a
   * client can neither keep nor open a connection. Partitioning again while partitioned only
   * moves the automatic heal. A connection to Redis that holds a request for a late delivery
   * stays open (its client's side is closed).
   */
  partition(options?: PartitionOptions): void;
  /** Ends a partition now; does nothing when there is none. */
  heal(): void;
  /** Resolves when no partition is in force (at once when none is). */
  whenHealed(): Promise<void>;
  /**
   * Destroys every current connection now (but keeps a connection to Redis that holds a request
   * for a late delivery); new ones are accepted as usual. Returns how many client connections it
   * closed.
   */
  reset(): number;
}

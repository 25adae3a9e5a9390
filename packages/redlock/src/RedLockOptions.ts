import { checkDuration, checkOptions } from '@deadbolt/core/kit';

/** Options of a {@link RedLock}. Every time is in milliseconds. */
export interface RedLockOptions {
  /**
   * How long one deployment may take to answer an acquisition, release or extension before it
   * counts as failed for it: a dead or paused node is never waited on longer. Keep it well below
   * the lease. Default 500, at least 1.
   */
  nodeTimeout?: number;
  /** The pause between two rounds of an acquisition that waits, on average. Default 200. */
  retryDelay?: number;
  /**
   * The most the pause differs from `retryDelay`, either way, at random, so that competing
   * clients fall out of step (a pause is never below 0). Default 100.
   */
  retryJitter?: number;
}

/** {@link RedLockOptions} after validation, with defaults applied. */
export type ResolvedRedLockOptions = Readonly<Required<RedLockOptions>>;

const KNOWN = ['nodeTimeout', 'retryDelay', 'retryJitter'] as const;

/** Checks options and applies defaults; throws `InvalidArgumentError` naming the bad one. */
export function resolveRedLockOptions(value: unknown): ResolvedRedLockOptions {
  const options = checkOptions<RedLockOptions>(value, KNOWN);
  return {
    nodeTimeout: checkDuration(options.nodeTimeout ?? 500, 'options.nodeTimeout', { min: 1 }),
    retryDelay: checkDuration(options.retryDelay ?? 200, 'options.retryDelay'),
    retryJitter: checkDuration(options.retryJitter ?? 100, 'options.retryJitter'),
  };
}

import { InvalidArgumentError } from '../errors/LockError.js';
import { checkDuration, checkOptions, describeValue } from '../options/validate.js';
import { abortWins, type AcquireLoop } from './waitToAcquire.js';
import { pause } from './pause.js';

/**
 * How long a waiter that polls (a kind that declares `LockKind.backoff`) sleeps between two
 * attempts. A policy is shared by every acquisition of a lock handle, so it keeps no state of its
 * own: the delay depends on the attempt number alone (and on chance, for jitter).
 */
export interface Backoff {
  /**
   * The sleep after the `failed`-th failed attempt of one acquisition, in milliseconds (a
   * positive number; the wait's end and the holder's TTL may cut it shorter).
   */
  delay(failed: number): number;
}

/** The settings of {@link exponentialBackoff}, all in milliseconds but `multiplier`. */
export interface ExponentialBackoffOptions {
  /** The first sleep, before jitter. Default 1, as Redisson's `ExponentialBackOff`. */
  readonly initialDelay?: number;
  /** The longest sleep. Default 128, as Redisson's. */
  readonly maxDelay?: number;
  /** How much longer each sleep is than the one before, before the cap. Default 2, as Redisson's. */
  readonly multiplier?: number;
}

/** Redisson's `LockOptions.ExponentialBackOff` defaults. */
export const DEFAULT_BACKOFF = {
  initialDelay: 1,
  maxDelay: 128,
  multiplier: 2,
} as const satisfies Required<ExponentialBackoffOptions>;

/**
 * The share of each delay that jitter may take off: the n-th delay lies between
 * `(1 - BACKOFF_JITTER) × d` and `d`, where `d = min(maxDelay, initialDelay × multiplier^(n-1))`,
 * so that waiters that failed together do not all try again together.
 */
export const BACKOFF_JITTER = 0.25;

/**
 * Exponential backoff with jitter, after Redisson's `ExponentialBackOff`: the first sleep is about
 * `initialDelay`, each next one `multiplier` times longer, never longer than `maxDelay`; each has
 * up to {@link BACKOFF_JITTER} of it taken off at random.
 *
 * @param options - the settings; those left out take {@link DEFAULT_BACKOFF}'s
 * @param argument - how errors name `options` (`options.backoff` for a lock's options)
 * @param random - a source of numbers in [0, 1), for tests; default `Math.random`
 * @throws {@link @deadbolt/core!index.InvalidArgumentError} naming the setting: delays must be whole milliseconds from 1
 *   with `maxDelay` ≥ `initialDelay`, and `multiplier` a finite number ≥ 1
 */
export function exponentialBackoff(
  options?: ExponentialBackoffOptions,
  argument = 'backoff',
  random: () => number = Math.random,
): Backoff {
  const given = checkOptions<ExponentialBackoffOptions>(options, ['initialDelay', 'maxDelay', 'multiplier'], argument);
  const initialDelay = checkDuration(given.initialDelay ?? DEFAULT_BACKOFF.initialDelay, `${argument}.initialDelay`, {
    min: 1,
  });
  const maxDelay = checkDuration(
    given.maxDelay ?? Math.max(DEFAULT_BACKOFF.maxDelay, initialDelay),
    `${argument}.maxDelay`,
    { min: initialDelay },
  );
  const multiplier = given.multiplier ?? DEFAULT_BACKOFF.multiplier;
  if (typeof multiplier !== 'number' || !Number.isFinite(multiplier) || multiplier < 1) {
    throw new InvalidArgumentError(
      `${argument}.multiplier`,
      `expected a finite number of at least 1, got ${describeValue(multiplier)}`,
    );
  }
  return {
    delay: (failed) => {
      const full = Math.min(maxDelay, initialDelay * multiplier ** Math.max(0, failed - 1));
      return full * (1 - BACKOFF_JITTER * random());
    },
  };
}

/**
 * Everything the polling wait loop needs from one lock: the {@link Backoff}, and what the pub/sub
 * wait loop takes but its channel, hand-off and hold-off (an attempt replies `null` when taken,
 * else the holder's TTL; `undo` gives back a hold an abort raced).
 */
export interface SpinLoop extends Pick<
  AcquireLoop,
  'firstTtl' | 'waitTime' | 'signal' | 'attempt' | 'undo' | 'onBusy'
> {
  /** How long to sleep after each failed attempt. */
  readonly backoff: Backoff;
}

/**
 * Tries to take a lock, and while it is held elsewhere, polls: sleeps the backoff's delay (cut
 * short by the holder's TTL and by the end of the wait) and tries again. Subscribes to nothing, so
 * it works where pub/sub does not; a release is seen at the next attempt.
 * Resolves `true` when taken, `false` when the wait time ran out; rejects with the signal's
 * reason when aborted (at once, also mid-sleep), leaving no timer and no hold behind. An abort
 * that races a successful attempt still wins: the hold goes back.
 */
export async function spinToAcquire(loop: SpinLoop): Promise<boolean> {
  const { signal } = loop;
  signal?.throwIfAborted();
  const deadline = performance.now() + loop.waitTime;
  let ttl = loop.firstTtl === undefined ? await loop.attempt() : loop.firstTtl;
  for (let failed = 1; ; failed++) {
    if (ttl === null) {
      await abortWins(signal, loop.undo);
      return true;
    }
    loop.onBusy?.();
    const remaining = deadline - performance.now();
    if (loop.waitTime <= 0 || remaining <= 0) return false;
    await pause(Math.min(loop.backoff.delay(failed), ttl, remaining), signal);
    ttl = await loop.attempt();
  }
}

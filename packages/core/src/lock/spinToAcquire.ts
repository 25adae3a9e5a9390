import { InvalidArgumentError } from '../errors/LockError.js';
import { checkDuration, checkOptions, describeValue } from '../options/validate.js';
import { waitLoop, type WaitLoop } from './acquisition/waitLoop.js';
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

/** Everything the polling wait needs from one acquisition. */
export interface SpinLoop<Hold> extends Pick<WaitLoop<Hold>, 'waitTime' | 'signal' | 'onBusy'> {
  /** How long to sleep after each failed attempt. */
  readonly backoff: Backoff;
  /** What a first attempt made before the wait found: the holder's TTL (see `WaitLoop.first`). */
  readonly firstTtl?: number | undefined;
  /** One attempt: the hold taken, else the holder's TTL in milliseconds. */
  attempt(): Promise<Hold | number>;
  /** Gives back a hold an abort raced. */
  giveBack: (hold: Hold) => Promise<void>;
}

/**
 * Tries to take a lock, and while it is held elsewhere, polls: sleeps the backoff's delay (cut
 * short by the holder's TTL and by the end of the wait) and tries again (see {@link waitLoop}).
 * Subscribes to nothing, so it works where pub/sub does not; a release is seen at the next attempt.
 *
 * @returns the hold taken, or `undefined` when the wait time ran out; rejects with the signal's
 *   reason when aborted (at once, also mid-sleep), leaving no timer and no hold behind. An abort
 *   that races a successful attempt still wins: the hold goes back.
 */
export function spinToAcquire<Hold extends object>(loop: SpinLoop<Hold>): Promise<Hold | undefined> {
  const { backoff, signal } = loop;
  return waitLoop<Hold>({
    waitTime: loop.waitTime,
    signal,
    first: loop.firstTtl,
    attempt: () => loop.attempt(),
    giveBack: loop.giveBack,
    onBusy: loop.onBusy,
    sleeper: async (ms, failed) => {
      await pause(Math.min(backoff.delay(failed), ms), signal);
      return undefined;
    },
  });
}

import { InvalidArgumentError } from '@deadbolt/core';
import { checkLockName, type WakeRule } from '@deadbolt/core/kit';

/**
 * The channel a latch's messages go out on: `redisson_countdownlatch__channel__{name}`, Redisson's
 * `RCountDownLatch` channel (message `0`: the count reached zero; `1`: a new count was set, or the
 * latch was deleted). The braces make the name the channel's hash tag, so the channel lives in the
 * latch's cluster slot.
 */
export function latchChannelName(name: string): string {
  return `redisson_countdownlatch__channel__{${name}}`;
}

/**
 * A latch name: a lock name without braces. Redisson wraps the name in braces to make its
 * channel, so a name with braces of its own would put the channel (and in a cluster, each script
 * that publishes on it) in another hash slot than the latch.
 */
export function checkLatchName(value: unknown): string {
  const name = checkLockName(value);
  if (/[{}]/.test(name)) {
    throw new InvalidArgumentError(
      'name',
      `must not contain braces: Redisson's latch channel wraps the name in them, got ${JSON.stringify(name)}`,
    );
  }
  return name;
}

/**
 * What the latch channel's messages mean (Redisson's `CountDownLatchPubSub`): `0` the count
 * reached zero, `1` a count was set or the latch deleted. Either may change what every waiter
 * reads, so each wakes them all.
 */
export const LATCH_WAKES: WakeRule = (message) => (message === '0' || message === '1' ? 'all' : undefined);

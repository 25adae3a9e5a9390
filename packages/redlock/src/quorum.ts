import { InvalidArgumentError } from '@deadbolt/core';
import { checkDuration } from '@deadbolt/core/kit';

/**
 * How many of `nodes` independent deployments must grant a RedLock: a strict majority.
 *
 * @throws `InvalidArgumentError` naming `nodes` when it is not a positive whole number
 */
export function quorum(nodes: number): number {
  if (!Number.isInteger(nodes) || nodes < 1)
    throw new InvalidArgumentError('nodes', `must be a positive whole number, got ${nodes}`);
  return Math.floor(nodes / 2) + 1;
}

/**
 * How long a RedLock acquired with `leaseTime` stays valid after `elapsed` ms of acquiring: the
 * lease minus the time spent minus the clock drift allowance (1% of the lease plus 2 ms). Zero
 * or less means the lock must be released on every node at once.
 */
export function validityTime(leaseTime: number, elapsed: number): number {
  checkDuration(leaseTime, 'leaseTime', { min: 1 });
  const drift = Math.floor(leaseTime * 0.01) + 2;
  return leaseTime - elapsed - drift;
}

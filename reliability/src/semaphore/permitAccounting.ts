/**
 * Permits that a holder took and never gave back, as its events tell: `certain` when it held them
 * at its end (killed holding them, nothing in flight), otherwise `maybe`: a request was in flight
 * or failed with Redis unreachable, so Redis may or may not have run it (an acquire that may have
 * taken them, a release that may have given them back).
 */
export interface PermitLeak {
  readonly id: string;
  readonly permits: number;
  readonly certain: boolean;
}

/** The semaphore's end count, checked against what its holders' events account for. */
export interface PermitAccount {
  /** The permits the semaphore was given. */
  readonly limit: number;
  /** What Redis says is available at the end, with every live holder done. */
  readonly available: number;
  /** `limit - available`: the permits nobody gave back. */
  readonly leaked: number;
  /** Permits certainly kept by holders killed with them. */
  readonly certain: number;
  /** Permits that requests of unknown outcome may account for. */
  readonly uncertain: number;
  /** Whether the leak is explained: `certain` plus the permits of some of the unknown requests. */
  readonly accounted: boolean;
}

/**
 * Accounts for the end count: the permits missing from `available` must be exactly those killed
 * holders kept, plus those of some subset of the requests whose outcome is unknown. With no such
 * request, the leak must equal what the killed holders held. A semaphore that gave a permit back
 * twice (a re-sent release) or took one twice (a re-sent acquire) fails it.
 */
export function accountPermits(limit: number, available: number, leaks: readonly PermitLeak[]): PermitAccount {
  const certain = sum(leaks.filter((leak) => leak.certain));
  const maybe = leaks.filter((leak) => !leak.certain);
  const leaked = limit - available;
  return {
    limit,
    available,
    leaked,
    certain,
    uncertain: sum(maybe),
    accounted: subsetSums(maybe.map((leak) => leak.permits)).has(leaked - certain),
  };
}

function sum(leaks: readonly PermitLeak[]): number {
  return leaks.reduce((total, leak) => total + leak.permits, 0);
}

// Every total some subset of `counts` adds up to (0 for the empty one).
function subsetSums(counts: readonly number[]): ReadonlySet<number> {
  let sums = new Set([0]);
  for (const count of counts) sums = new Set([...sums, ...[...sums].map((total) => total + count)]);
  return sums;
}

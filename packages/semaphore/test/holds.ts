// What the hammer tests of both semaphores share: the intervals during which permits were held,
// and the most held at once.

/** Permits held from `from` to `to` (`performance.now()`). */
export interface Hold {
  readonly from: number;
  readonly to: number;
  readonly permits: number;
}

/** The most permits held at once: a sweep over the holds' starts and ends, an end first on a tie. */
export function mostHeldAtOnce(holds: readonly Hold[]): number {
  const changes = holds.flatMap(({ from, to, permits }) => [
    { at: from, by: permits },
    { at: to, by: -permits },
  ]);
  changes.sort((x, y) => x.at - y.at || x.by - y.by);
  let held = 0;
  let most = 0;
  for (const { by } of changes) most = Math.max(most, (held += by));
  return most;
}

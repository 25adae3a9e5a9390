import { sleep } from './timing.js';

/** What {@link countOverlaps} saw. */
export interface Overlaps {
  /** How many critical sections ran to the end. */
  readonly runs: number;
  /** The most critical sections that were running at once: 1 when the lock excluded every other holder. */
  readonly mostAtOnce: number;
}

/**
 * Runs `tasks` concurrent loops of `rounds` calls to `enter`, each of which must run the critical
 * section it is given (through a lock's `withLock`, say), and counts how many critical sections
 * overlapped. Each section yields to the event loop for `holdFor` ms, so that a lock that let a
 * second holder in would be caught.
 *
 * @example `countOverlaps(10, 4, (task, critical) => lock.withLock(critical, { waitTime: 30_000 }))`
 */
export async function countOverlaps(
  tasks: number,
  rounds: number,
  enter: (task: number, critical: () => Promise<void>) => Promise<unknown>,
  holdFor = 2,
): Promise<Overlaps> {
  let inside = 0;
  let mostAtOnce = 0;
  let runs = 0;
  const critical = async () => {
    mostAtOnce = Math.max(mostAtOnce, ++inside);
    await sleep(holdFor);
    inside -= 1;
    runs += 1;
  };
  await Promise.all(
    Array.from({ length: tasks }, async (_, task) => {
      for (let round = 0; round < rounds; round++) await enter(task, critical);
    }),
  );
  return { runs, mostAtOnce };
}

import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerShape } from '../hammer/hammerShape.js';
import { groupSubjectsOn, subjectsOn, type ReliabilityKind } from '../kinds.js';

/**
 * A chaos hammer run: 3 worker processes (one per client host) × 2 tasks per lock × 4 holds, each
 * working 400 ms so that a hold is still open when a fault lands after its grant (starting `ip` takes
 * a while on a loaded machine); a 2 s lease, shorter than the faults (renewed every 667 ms: a renewal may time out once on a loaded
 * machine),
 * and a 500 ms `commandTimeout`, so that calls to a silent host end within the run.
 */
export const CHAOS_SHAPE = {
  processes: 3,
  tasksPerSubject: 2,
  holdsPerTask: 4,
  workMs: 400,
  watchdogTimeout: 2_000,
  commandTimeout: 500,
} as const satisfies HammerShape;

/** The locks a chaos run hammers: a `Lock`, and a `FencedLock`, whose store refuses stale tokens. */
export function chaosSubjects(): LockSubject<ReliabilityKind>[] {
  return subjectsOn('standalone').filter(({ kind }) => kind.id === 'Lock' || kind.id === 'FencedLock');
}

/** A chaos RedLock's members: 5 independent servers, each on a host of its own. */
export const REDLOCK_MEMBERS = 5;

/** The lock a chaos RedLock run hammers, from 3 tasks per worker (a group's turns are longer). */
export const REDLOCK_CHAOS = {
  subjects: groupSubjectsOn('standalone').filter(({ kind }) => kind.id === 'RedLock'),
  shape: { ...CHAOS_SHAPE, tasksPerSubject: 3 },
} as const;

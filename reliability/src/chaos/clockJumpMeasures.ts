import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerEvent } from '../hammer/hammerEvents.js';
import type { HammerKind } from '../kinds.js';
import type { ChaosHammerReport } from './runChaosHammer.js';

/** What one lock of a chaos run saw of its server's wall clock jumping past the lease (issue 32, scenario 5). */
export interface ClockJumpMeasures {
  /** The subject's label: `Lock`, `FencedLock`. */
  readonly subject: string;
  /** Holds open when the server's clock jumped (granted before, not released by then). */
  readonly holdsAtJump: number;
  /** Of those, holds whose signal aborted (the holder was told) before their release was called. */
  readonly holdsTold: number;
  /** The longest from a jump to a told holder's abort, in ms: how long it worked on, untold. */
  readonly slowestToldMs: number | null;
  /** Holds of other owners that overlapped one of this lock's (counted once per pair). */
  readonly overlaps: number;
  /** Writes the store refused for a stale fencing token; absent for a lock without tokens. */
  readonly staleWritesRefused?: number;
  /** Increments that landed but were overwritten by a stale holder's write: stale writes accepted. */
  readonly lostUpdates: number;
}

type Timed<Name extends HammerEvent['event']> = Extract<HammerEvent, { event: Name }>;

/**
 * Measures, lock by lock, what a holder was told of a jump and what overlapped, from the workers'
 * events; the stale writes refused for the `subjects` whose kind issues fencing tokens.
 */
export function clockJumpMeasures(
  report: ChaosHammerReport,
  jumpedAt: readonly number[],
  subjects: readonly LockSubject<HammerKind>[],
): ClockJumpMeasures[] {
  const fenced = new Set(subjects.filter(({ kind }) => kind.token !== undefined).map(({ label }) => label));
  const events = report.workers.flatMap((worker) => worker.events);
  const ofKind = <Name extends HammerEvent['event']>(name: Name) =>
    events.filter((event): event is Timed<Name> => event.event === name);
  const abortedAt = new Map(ofKind('aborted').map((event) => [event.hold, event.at]));
  const workedUntil = new Map(ofKind('worked').map((event) => [event.hold, event.end]));
  const locks = [...new Map(report.holds.map((hold) => [hold.lock, hold.subject])).entries()];
  return locks.map(([lock, subject]) => {
    const holds = report.holds.filter((hold) => hold.lock === lock);
    const delays: number[] = [];
    let holdsAtJump = 0;
    for (const jump of jumpedAt)
      for (const hold of holds) {
        if (hold.start >= jump || (workedUntil.get(hold.id) ?? Infinity) <= jump) continue;
        holdsAtJump++;
        const aborted = abortedAt.get(hold.id);
        if (aborted !== undefined && aborted > jump && aborted <= (workedUntil.get(hold.id) ?? Infinity))
          delays.push((aborted - jump) / 1000);
      }
    const resource = report.resources.find((state) => state.lock === lock);
    return {
      subject,
      holdsAtJump,
      holdsTold: delays.length,
      slowestToldMs: delays.length === 0 ? null : Math.round(Math.max(...delays)),
      overlaps: report.overlaps.filter((overlap) => overlap.earlier.lock === lock).length,
      lostUpdates: resource === undefined ? 0 : resource.landed.size - resource.counter,
      ...(fenced.has(subject) ? { staleWritesRefused: holds.filter((hold) => hold.rejected).length } : {}),
    };
  });
}

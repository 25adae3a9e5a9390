/** One hold as the hammer saw it, with its working interval in monotonic microseconds. */
export interface HoldInterval {
  /** The lock's name: only holds of one lock can conflict. */
  readonly lock: string;
  /** The owner (process and task); one owner's holds follow each other and never overlap. */
  readonly owner: string;
  readonly pid: number;
  /** Whether the hold's role keeps every other owner out. */
  readonly exclusive: boolean;
  readonly start: number;
  readonly end: number;
  /**
   * When its acquisition was asked for, if known: the lock may have been granted any time from
   * then until `start`, so a freeze in between can let the grant expire before the holder knew.
   */
  readonly requested?: number;
}

/** A stretch during which a process was frozen (SIGSTOP .. SIGCONT), in monotonic microseconds. */
export interface ProcessPause {
  readonly pid: number;
  readonly from: number;
  readonly to: number;
}

/** Two holds of distinct owners of one lock, at least one exclusive, whose intervals intersect. */
export interface Overlap<Hold extends HoldInterval = HoldInterval> {
  /** The hold that started first. */
  readonly earlier: Hold;
  readonly later: Hold;
  /**
   * One holder's lease provably ran out under it: its process was frozen for at least a whole
   * lease after its lock may have been granted, and the other hold started after that freeze
   * began. (The stale one may be the later by recorded start: granted before the freeze, it
   * learnt of its grant only after.) Such an overlap is the case fencing exists for; every other
   * overlap is a broken lock.
   */
  readonly excused: boolean;
}

/**
 * Every pair of conflicting holds: same lock, distinct owners, at least one exclusive, intervals
 * intersecting. `leaseMicros` is the lease the holders' watchdog keeps, for telling which
 * overlaps a frozen holder explains.
 */
export function findOverlaps<Hold extends HoldInterval>(
  holds: readonly Hold[],
  pauses: readonly ProcessPause[],
  leaseMicros: number,
): Overlap<Hold>[] {
  const overlaps: Overlap<Hold>[] = [];
  const byLock = new Map<string, Hold[]>();
  for (const hold of holds) byLock.set(hold.lock, [...(byLock.get(hold.lock) ?? []), hold]);
  for (const lockHolds of byLock.values()) {
    const sorted = [...lockHolds].sort((a, b) => a.start - b.start);
    let active: Hold[] = [];
    for (const hold of sorted) {
      active = active.filter((other) => other.end > hold.start);
      for (const other of active) {
        if (other.owner === hold.owner || !(other.exclusive || hold.exclusive)) continue;
        const excused = staleBefore(other, hold, pauses, leaseMicros) || staleBefore(hold, other, pauses, leaseMicros);
        overlaps.push({ earlier: other, later: hold, excused });
      }
      active.push(hold);
    }
  }
  return overlaps;
}

// Whether `stale` was frozen past its lease before `other` started.
function staleBefore(
  stale: HoldInterval,
  other: HoldInterval,
  pauses: readonly ProcessPause[],
  leaseMicros: number,
): boolean {
  return freezesPastLease(stale, pauses, leaseMicros).some((pause) => other.start >= pause.from);
}

/**
 * The freezes of `hold`'s process that kept it stopped for at least a lease between the moment
 * its lock may have been granted (from when it was asked for) and the end of the hold.
 */
export function freezesPastLease(
  hold: HoldInterval,
  pauses: readonly ProcessPause[],
  leaseMicros: number,
): ProcessPause[] {
  const granted = hold.requested ?? hold.start;
  return pauses.filter(
    (pause) => pause.pid === hold.pid && Math.min(pause.to, hold.end) - Math.max(pause.from, granted) >= leaseMicros,
  );
}

import { identityKey, type HoldRecord } from './HoldRecord.js';
import { conflicts } from './ModelKind.js';
import type { ViolationLog } from './Violation.js';

/**
 * The hold-interval history: each hold is its holder's from the moment its acquisition resolved
 * until release was called, its signal aborted, a `forceUnlock` took it, or its believed lease
 * ended, whichever came first. Two holds of distinct owners that exclude each other (anything
 * but two read holds) must never overlap. Checked as each hold begins, against every earlier one.
 */
export function checkOverlap(started: HoldRecord, earlier: readonly HoldRecord[], log: ViolationLog): void {
  const key = identityKey(started.identity);
  for (const other of earlier) {
    if (other === started || identityKey(other.identity) === key || !conflicts(started.half, other.half)) continue;
    const end = other.intervalEnd;
    if (other.resolvedAt <= started.resolvedAt && end > started.resolvedAt) {
      const open = Number.isFinite(end)
        ? `until ${Math.round(end - started.resolvedAt)} ms later`
        : 'with no end in sight';
      log.add('overlap', `${started.describe()} began while ${other.describe()} was still its holder's (${open})`);
    }
  }
}

/** Counts overlapping pairs of distinct, excluding owners in a finished history (for figures). */
export function countOverlaps(holds: readonly HoldRecord[]): number {
  let overlaps = 0;
  const sorted = [...holds].sort((a, b) => a.resolvedAt - b.resolvedAt);
  sorted.forEach((hold, i) => {
    for (const later of sorted.slice(i + 1)) {
      if (identityKey(later.identity) === identityKey(hold.identity) || !conflicts(hold.half, later.half)) continue;
      if (later.resolvedAt < hold.intervalEnd) overlaps += 1;
    }
  });
  return overlaps;
}

/**
 * One grant of permits as the history saw it: from the moment its holder learnt it had them (the
 * acquire's reply) to the moment it let them go (its release was sent). Redis took them a little
 * before and gets them back a little after, so this interval is never longer than the real one:
 * a sum of intervals that exceeds the limit is a real excess, never an artefact of timing.
 */
export interface PermitInterval {
  /** Who held them, for the report (`<pid>.<task>.<iteration>` in the hammer, `#<n>` in the model). */
  readonly id: string;
  readonly permits: number;
  readonly start: number;
  /** `Infinity` for permits never given back (their holder was killed with them). */
  readonly end: number;
}

/** The semaphore's limit from `at` on: the permits it was given (set, added, taken away, drained). */
export interface LimitChange {
  readonly at: number;
  readonly limit: number;
}

/** A grant that took the permits held at once above the limit in effect when it was granted. */
export interface PermitExcess {
  readonly grant: PermitInterval;
  /** Permits held at that moment, the grant's included. */
  readonly held: number;
  readonly limit: number;
}

// A sweep event: a grant's start or end, or a limit change.
type Mark =
  | { readonly at: number; readonly order: 0; readonly kind: 'end'; readonly grant: PermitInterval }
  | { readonly at: number; readonly order: 1; readonly kind: 'limit'; readonly limit: number }
  | { readonly at: number; readonly order: 2; readonly kind: 'start'; readonly grant: PermitInterval };

/**
 * Every grant that, counted with every grant still held at its start, held more permits than
 * the limit in effect: the semaphore let one holder too many in. At one instant an end comes
 * before a limit change, which comes before a start (intervals that touch do not overlap). With
 * no limit change before a grant, the limit is 0. A limit lowered below what is held (a negative
 * `addPermits`) is no excess by itself: only a grant of permits made while too many are held is
 * (a grant of 0 takes nothing).
 */
export function findPermitExcesses(grants: readonly PermitInterval[], limits: readonly LimitChange[]): PermitExcess[] {
  const marks: Mark[] = [
    ...grants.flatMap((grant): Mark[] => [
      { at: grant.start, order: 2, kind: 'start', grant },
      { at: grant.end, order: 0, kind: 'end', grant },
    ]),
    ...limits.map((change): Mark => ({ at: change.at, order: 1, kind: 'limit', limit: change.limit })),
  ];
  marks.sort((a, b) => a.at - b.at || a.order - b.order);
  const excesses: PermitExcess[] = [];
  let held = 0;
  let limit = 0;
  for (const mark of marks) {
    if (mark.kind === 'limit') limit = mark.limit;
    else if (mark.kind === 'end') held -= mark.grant.permits;
    else {
      held += mark.grant.permits;
      if (held > limit && mark.grant.permits > 0) excesses.push({ grant: mark.grant, held, limit });
    }
  }
  return excesses;
}

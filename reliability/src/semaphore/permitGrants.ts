import type { PermitLeak } from './permitAccounting.js';
import type { PermitEvent } from './permitEvents.js';
import type { PermitInterval } from './permitHistory.js';

/** What one worker's events say about its grants. */
export interface WorkerGrants {
  /** Every grant it took, with its interval; one its killed worker held lasts until given back for it. */
  readonly grants: readonly PermitInterval[];
  /** Permits it kept or may have kept (see {@link PermitLeak}). */
  readonly leaks: readonly PermitLeak[];
  /** Grants given back with a release that came back. */
  readonly completed: number;
  /** Requests whose outcome it could not know: failed with Redis unreachable, or in flight when it was killed. */
  readonly unknown: number;
}

/** Where one attempt got to, from its events (times in monotonic microseconds). */
export interface PermitAttempt {
  permits: number;
  stage: 'asking' | 'acquired' | 'missed' | 'releasing' | 'released';
  unknown: boolean;
  /** When it asked: a lease counted from then ends no later than the real one. */
  asked: number;
  /** Its fixed lease, in ms (leased kinds). */
  leaseMs?: number;
  /** The acquire's reply, and the moment its release was sent. */
  start?: number;
  end?: number;
  /** When its holder was told the permits were lost (its signal aborted). */
  told?: number;
  /** Its release found some permits no longer held. */
  lapsed?: boolean;
}

/** How long a leased kind's permits last without a fixed lease: the workers' `watchdogTimeout`. */
export interface GrantLeases {
  readonly watchdogMs: number;
}

const MICROS_PER_MS = 1_000;

/**
 * Rebuilds a worker's grants from its events, in order. `killed`, for a worker that was killed:
 * when its permits were given back for it (`at`, `Infinity` if never). An attempt it had not
 * finished may have been cut anywhere: one holding its permits held them until then, one with a
 * request in flight may or may not have had it run.
 *
 * With `leases` (a leased kind), `killed.at` is the kill, a grant ends no later than its lease
 * (see {@link leasedGrantEnd}), and nothing leaks: every permit comes back when its lease ends.
 */
export function grantsOf(
  events: readonly PermitEvent[],
  killed?: { readonly at: number },
  leases?: GrantLeases,
): WorkerGrants {
  const attempts = attemptsOf(events);
  if (leases !== undefined) return leasedGrantsOf(attempts, killed, leases);
  const grants: PermitInterval[] = [];
  const leaks: PermitLeak[] = [];
  let completed = 0;
  let unknown = 0;
  for (const [id, attempt] of attempts) {
    if (attempt.start !== undefined)
      grants.push({ id, permits: attempt.permits, start: attempt.start, end: attempt.end ?? killed?.at ?? Infinity });
    if (attempt.stage === 'released' && !attempt.unknown) completed++;
    const inFlight = killed !== undefined && (attempt.stage === 'asking' || attempt.stage === 'releasing');
    if (inFlight || attempt.unknown) {
      unknown++;
      leaks.push({ id, permits: attempt.permits, certain: false });
    } else if (attempt.stage === 'acquired') {
      if (killed === undefined) throw new Error(`grant ${id} was never given back by a worker that was not killed`);
      leaks.push({ id, permits: attempt.permits, certain: true });
    } else if (attempt.stage === 'asking' || attempt.stage === 'releasing') {
      throw new Error(`attempt ${id} never finished in a worker that was not killed`);
    }
  }
  return { grants, leaks, completed, unknown };
}

/**
 * A leased kind's grants: each ends at the earliest moment its permits can have stopped being
 * held. Nothing leaks; a request cut by the kill or failed with Redis unreachable still counts
 * as unknown.
 */
function leasedGrantsOf(
  attempts: ReadonlyMap<string, PermitAttempt>,
  killed: { readonly at: number } | undefined,
  leases: GrantLeases,
): WorkerGrants {
  const grants: PermitInterval[] = [];
  let completed = 0;
  let unknown = 0;
  for (const [id, attempt] of attempts) {
    if (attempt.start !== undefined)
      grants.push({ id, permits: attempt.permits, start: attempt.start, end: leasedGrantEnd(attempt, killed, leases) });
    if (attempt.stage === 'released' && !attempt.unknown) completed++;
    const inFlight = killed !== undefined && (attempt.stage === 'asking' || attempt.stage === 'releasing');
    if (inFlight || attempt.unknown) unknown++;
    else if (killed === undefined && attempt.stage !== 'released' && attempt.stage !== 'missed')
      throw new Error(`attempt ${id} never finished in a worker that was not killed`);
  }
  return { grants, leaks: [], completed, unknown };
}

/**
 * When a leased grant's permits certainly were still held, at the latest: the release sent (or
 * the kill); never later than its lease counted from when it asked. A grant under the watchdog
 * is held at least one `watchdogTimeout` from its request, and, killed untold, until the kill;
 * once its holder was told it lost it, the history knows no more than that first lease.
 */
export function leasedGrantEnd(
  attempt: PermitAttempt,
  killed: { readonly at: number } | undefined,
  leases: GrantLeases,
): number {
  const firstLease = attempt.asked + (attempt.leaseMs ?? leases.watchdogMs) * MICROS_PER_MS;
  if (attempt.leaseMs !== undefined || attempt.told !== undefined)
    return Math.min(attempt.end ?? killed?.at ?? Infinity, firstLease);
  return attempt.end ?? (killed === undefined ? Infinity : Math.max(killed.at, firstLease));
}

/** Every attempt of a worker, by hold id, from its events in order. */
export function attemptsOf(events: readonly PermitEvent[]): Map<string, PermitAttempt> {
  const attempts = new Map<string, PermitAttempt>();
  const of = (hold: string) => attempts.get(hold) ?? fail(`event of attempt ${hold} before it asked`);
  for (const event of events) {
    if (event.event === 'asking') {
      attempts.set(event.hold, {
        permits: event.permits,
        stage: 'asking',
        unknown: false,
        asked: event.at,
        ...(event.leaseMs === undefined ? {} : { leaseMs: event.leaseMs }),
      });
    } else if (event.event === 'acquired') Object.assign(of(event.hold), { stage: 'acquired', start: event.at });
    else if (event.event === 'missed') Object.assign(of(event.hold), { stage: 'missed', unknown: event.unknown });
    else if (event.event === 'releasing') Object.assign(of(event.hold), { stage: 'releasing', end: event.at });
    else if (event.event === 'released')
      Object.assign(of(event.hold), { stage: 'released', unknown: event.unknown, lapsed: event.lapsed });
    else if (event.event === 'told') Object.assign(of(event.hold), { told: event.at });
  }
  return attempts;
}

function fail(message: string): never {
  throw new Error(message);
}

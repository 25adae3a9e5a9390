import type { CutOff } from '../faults/FaultLog.js';
import type { HammerEvent } from '../hammer/hammerEvents.js';
import type { SplitTimings } from './chaosFaults.js';
import type { ChaosSplitFigures } from './chaosRecord.js';
import type { ChaosHammerReport } from './runChaosHammer.js';

/** What a chaos run measured of the promises the library makes under a silent host (issue 32). */
export interface ChaosMeasures {
  /** Holds open when the lock server's host went silent (granted before, not released by then). */
  readonly holdsAtFault: number;
  /** Of those, holds whose signal aborted before their lease could have ended on the server. */
  readonly holdsToldInTime: number;
  /**
   * Of those not told in time, holds whose work ended (their release was called) before their lease
   * could end: out of their critical section in time, told or not.
   */
  readonly holdsLeftInTime: number;
  /**
   * The least time between a told holder's abort and the earliest its lease could have ended on the
   * server (the cut-off's start plus a lease: no renewal arrived after the link went down), in ms.
   */
  readonly leastAbortMarginMs: number | null;
  /** The longest a failed release try took past the moment the host went silent (or its start), in ms. */
  readonly longestReleaseTryMs: number;
  /** The same for failed acquire tries, which may first wait their turn for the lock. */
  readonly longestAcquireTryMs: number;
  /** Locks granted while cut off (from a quarter second after the cut-off's start, for replies already read): must be 0. */
  readonly grantsWhileCutOff: number;
  /** Client hosts whose workers took a lock again after the last heal, of `clientHosts`. */
  readonly recoveredHosts: number;
  readonly clientHosts: number;
}

// A grant whose replies were read before the cut-off may be reported a little after it.
const GRANT_GRACE_MICROS = 250_000;

type Timed<Name extends HammerEvent['event']> = Extract<HammerEvent, { event: Name }>;

/** Measures what the promises under a silent host need, from the workers' events. */
export function chaosMeasures(report: ChaosHammerReport, leaseMs: number): ChaosMeasures {
  const events = report.workers.flatMap((worker) => worker.events);
  const ofKind = <Name extends HammerEvent['event']>(name: Name) =>
    events.filter((event): event is Timed<Name> => event.event === name);
  const releasedAt = new Map(ofKind('released').map((event) => [event.hold, event]));
  const abortedAt = new Map(ofKind('aborted').map((event) => [event.hold, event.at]));
  const workedUntil = new Map(ofKind('worked').map((event) => [event.hold, event.end]));
  const margins: number[] = [];
  let holdsAtFault = 0;
  let holdsLeftInTime = 0;
  for (const { from } of report.faults.cutOffs) {
    for (const acquired of ofKind('acquired')) {
      const released = releasedAt.get(acquired.hold);
      // A hold released before the cut-off, or whose release landed (only one sent before it can), was not open.
      if (acquired.at >= from || (released !== undefined && (released.at <= from || released.release === 'released')))
        continue;
      holdsAtFault++;
      const aborted = abortedAt.get(acquired.hold);
      const leaseEnd = from + leaseMs * 1000;
      if ((aborted === undefined || aborted > leaseEnd) && (workedUntil.get(acquired.hold) ?? Infinity) < leaseEnd)
        holdsLeftInTime++;
      margins.push(aborted === undefined ? -Infinity : (from + leaseMs * 1000 - aborted) / 1000);
    }
  }
  return {
    grantsWhileCutOff: grantsWhileCutOff(ofKind('acquired'), report.faults.cutOffs),
    holdsAtFault,
    holdsToldInTime: margins.filter((margin) => margin > 0).length,
    holdsLeftInTime,
    leastAbortMarginMs: margins.length === 0 ? null : Math.round(Math.min(...margins)),
    longestReleaseTryMs: longestTry(ofKind('retried'), 'release', report.faults.cutOffs),
    longestAcquireTryMs: longestTry(ofKind('retried'), 'acquire', report.faults.cutOffs),
    recoveredHosts: hostsGrantedAfter(report, report.faults.lastHeal),
    clientHosts: new Set(report.hostOf.values()).size,
  };
}

/** How many of `grants` came while cut off (from a grace after a cut-off's start: replies already read). */
export function grantsWhileCutOff(grants: readonly { readonly at: number }[], cutOffs: readonly CutOff[]): number {
  return grants.filter((grant) => cutOffs.some((cut) => grant.at > cut.from + GRANT_GRACE_MICROS && grant.at < cut.to))
    .length;
}

/** Workers of a chaos run, and the host each ran on, by pid. */
export interface PlacedWorkers {
  readonly workers: readonly { readonly pid: number; readonly events: readonly { readonly event: string }[] }[];
  readonly hostOf: ReadonlyMap<number, string>;
}

/** How many client hosts' workers took a lock (an `acquired` event) after `at` (monotonic microseconds). */
export function hostsGrantedAfter(report: PlacedWorkers, at: number): number {
  return new Set(
    report.workers
      .filter((worker) => grantTimesOf(worker).some((grantedAt) => grantedAt > at))
      .map((worker) => report.hostOf.get(worker.pid)),
  ).size;
}

/**
 * How many client hosts' workers had been granted fewer than `grantsPerWorker` by `at` (monotonic
 * microseconds): the hosts that still had grants to take then, which must be granted again after a
 * heal. A lock or semaphore that is not fair may have served a host all its grants before.
 */
export function hostsWithGrantsLeft(report: PlacedWorkers, at: number, grantsPerWorker: number): number {
  return new Set(
    report.workers
      .filter((worker) => grantTimesOf(worker).filter((grantedAt) => grantedAt <= at).length < grantsPerWorker)
      .map((worker) => report.hostOf.get(worker.pid)),
  ).size;
}

// When a worker was granted its locks (its `acquired` events), in monotonic microseconds.
function grantTimesOf(worker: PlacedWorkers['workers'][number]): number[] {
  return worker.events.flatMap((event) => (event.event === 'acquired' && 'at' in event ? [Number(event.at)] : []));
}

/** The longest failed try of `stage`, counted from its start or from the cut-off it met, in ms. */
export function longestTry(
  tries: readonly { readonly stage: string; readonly started: number; readonly at: number }[],
  stage: string,
  cutOffs: readonly CutOff[],
): number {
  const durations = tries
    .filter((attempt) => attempt.stage === stage)
    .map((attempt) => {
      const cut = cutOffs.find((cutOff) => attempt.started <= cutOff.to && attempt.at >= cutOff.from);
      return (attempt.at - Math.max(attempt.started, cut?.from ?? attempt.started)) / 1000;
    });
  return Math.round(Math.max(0, ...durations));
}

/** What a split with a failover saw: the failover's time, and the grants on either side while split. */
export function splitFigures(report: PlacedWorkers, timings: SplitTimings, minorityHost: string): ChaosSplitFigures {
  const { failoverMs, split } = timings;
  if (failoverMs === undefined || split === undefined) throw new Error('the split with a failover did not happen');
  const grants = report.workers.map((worker) => ({
    host: report.hostOf.get(worker.pid),
    count: grantTimesOf(worker).filter((at) => at > split.from && at < split.to).length,
  }));
  const sum = (side: typeof grants) => side.reduce((total, { count }) => total + count, 0);
  return {
    failoverMs,
    minorityGrants: sum(grants.filter(({ host }) => host === minorityHost)),
    majorityGrants: sum(grants.filter(({ host }) => host !== minorityHost)),
  };
}

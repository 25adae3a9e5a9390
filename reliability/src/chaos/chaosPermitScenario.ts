import { expect } from 'vitest';
import type { CutOff } from '../faults/FaultLog.js';
import { CALL_SLACK_MS } from './chaosChecks.js';
import {
  grantsWhileCutOff,
  hostsGrantedAfter,
  hostsWithGrantsLeft,
  longestTry,
  type ChaosMeasures,
} from './chaosMeasures.js';
import type { ChaosPermitEvent } from './chaosPermitEvents.js';
import { recordChecked, recordedIfUnfinished, type ChaosSplitFigures } from './chaosRecord.js';
import { runChaosPermits, type ChaosPermitOptions, type ChaosPermitReport } from './runChaosPermits.js';

/** One semaphore scenario of issue 32 on one adapter: a chaos permit run, its checks and its record. */
export interface ChaosPermitScenario {
  /** The test's `import.meta.url`. */
  readonly testFile: string;
  /** The scenario, as the results name it. */
  readonly scenario: string;
  /** What the run does, in words. */
  readonly tried: string;
  readonly run: ChaosPermitOptions;
  /**
   * What must hold instead of the silent-host checks ({@link expectPermitsHeld}): for a split with
   * a failover, where no host is cut off from every master.
   */
  readonly check?: (measures: PermitMeasures, run: ChaosPermitOptions) => void;
  /**
   * The run measures the permit counts under a fault where nothing promises them (its `check`
   * leaves them unchecked): recorded as `measuredOnly`, so that a lucky run is never read as kept.
   */
  readonly measuredOnly?: boolean;
  /** What a split with a failover saw, from the run's report; none when absent. */
  readonly split?: (report: ChaosPermitReport) => ChaosSplitFigures;
}

/** What a chaos permit run measured, beyond what every chaos run does. */
export interface PermitMeasures extends ChaosMeasures {
  readonly grants: number;
  /** Grants at which the store counted more holders than permits: permits invented. */
  readonly holdersOverLimit: number;
  /** The most holders the store counted at once. */
  readonly mostHolders: number;
  /** The free permits once every holder gave its permit back and every lease ended. */
  readonly permitsAtEnd: number;
  /** Permits still marked held then. */
  readonly markedHeldAtEnd: number;
  /**
   * Client hosts whose worker had grants left to take at the last heal: each must be granted again
   * (`recoveredHosts`). The semaphore is not fair, so a host may be done before then.
   */
  readonly hostsWithGrantsLeft: number;
}

type Timed<Name extends ChaosPermitEvent['event']> = Extract<ChaosPermitEvent, { event: Name }>;

/** Measures a chaos permit run from its workers' events and the semaphore at the end. */
export function permitMeasures(report: ChaosPermitReport, options: ChaosPermitOptions): PermitMeasures {
  const events = report.workers.flatMap((worker) => worker.events);
  const ofKind = <Name extends ChaosPermitEvent['event']>(name: Name) =>
    events.filter((event): event is Timed<Name> => event.event === name);
  const acquired = ofKind('acquired');
  const cutOffs = report.faults.cutOffs;
  const healedAt = report.faults.lastHeal;
  return {
    ...holdsAtCutOffs(acquired, ofKind('worked'), ofKind('told'), cutOffs, options.watchdogTimeout),
    grants: acquired.length,
    holdersOverLimit: acquired.filter((grant) => grant.holders > options.permits).length,
    mostHolders: Math.max(0, ...acquired.map((grant) => grant.holders)),
    permitsAtEnd: report.atEnd.available,
    markedHeldAtEnd: report.atEnd.markedHeld,
    grantsWhileCutOff: grantsWhileCutOff(acquired, cutOffs),
    longestReleaseTryMs: longestTry(ofKind('retried'), 'release', cutOffs),
    longestAcquireTryMs: longestTry(ofKind('retried'), 'acquire', cutOffs),
    recoveredHosts: hostsGrantedAfter(report, healedAt),
    hostsWithGrantsLeft: hostsWithGrantsLeft(report, healedAt, options.tasks * options.holdsPerTask),
    clientHosts: new Set(report.hostOf.values()).size,
  };
}

// The holds still counted at the store when a cut-off began, and how many of them were told (their
// signal aborted), or had stopped counting themselves, before a lease from the cut-off's start.
function holdsAtCutOffs(
  acquired: readonly Timed<'acquired'>[],
  worked: readonly Timed<'worked'>[],
  told: readonly Timed<'told'>[],
  cutOffs: readonly CutOff[],
  leaseMs: number,
): Pick<ChaosMeasures, 'holdsAtFault' | 'holdsToldInTime' | 'holdsLeftInTime' | 'leastAbortMarginMs'> {
  const endOf = new Map(worked.map((event) => [event.hold, event.end]));
  const toldAt = new Map(told.map((event) => [event.hold, event.at]));
  const margins: number[] = [];
  let holdsLeftInTime = 0;
  for (const { from } of cutOffs) {
    const leaseEnd = from + leaseMs * 1000;
    for (const grant of acquired.filter((each) => each.at < from && (endOf.get(each.hold) ?? Infinity) > from)) {
      const at = toldAt.get(grant.hold);
      margins.push(at === undefined ? -Infinity : (leaseEnd - at) / 1000);
      if ((at === undefined || at > leaseEnd) && (endOf.get(grant.hold) ?? Infinity) < leaseEnd) holdsLeftInTime++;
    }
  }
  return {
    holdsAtFault: margins.length,
    holdsToldInTime: margins.filter((margin) => margin > 0).length,
    holdsLeftInTime,
    leastAbortMarginMs: margins.length === 0 ? null : Math.round(Math.min(...margins)),
  };
}

/**
 * What must hold when the semaphore's server goes silent: never more holders at once than
 * permits (counted at the store), every permit free again at the end and none marked held, no
 * grant while cut off, no failed release try longer than `commandTimeout` (plus slack), no failed
 * acquire try longer than a lease or the cut-off plus it, every client host with grants left
 * granted again once healed; and for a leased kind, every holder open at the cut-off told, or
 * done, before its lease could end.
 */
export function expectPermitsHeld(measures: PermitMeasures, options: ChaosPermitOptions, cutOffMs: number): void {
  expect(measures.holdersOverLimit, 'grants with more holders than permits (at the store)').toBe(0);
  expect(measures.mostHolders, 'most holders at once').toBeLessThanOrEqual(options.permits);
  expect(measures.permitsAtEnd, 'free permits once every holder gave back').toBe(options.permits);
  expect(measures.markedHeldAtEnd, 'permits still marked held at the end').toBe(0);
  expect(measures.holdsAtFault, 'holds open when the host went silent').toBeGreaterThan(0);
  expect(measures.grantsWhileCutOff, 'permits granted while the server was cut off').toBe(0);
  if (options.kind.leased)
    expect(
      measures.holdsToldInTime + measures.holdsLeftInTime,
      'holds told (or done) before their lease could end',
    ).toBe(measures.holdsAtFault);
  const { commandTimeout, watchdogTimeout } = options;
  expect(measures.longestReleaseTryMs, 'longest failed release try, ms').toBeLessThanOrEqual(
    commandTimeout + CALL_SLACK_MS,
  );
  // A waiting acquisition has nothing in flight while it waits for a permit, and no lease bounds its
  // turn (a Semaphore's holders keep theirs through the cut-off): it may learn of a cut-off only
  // from a call sent once the host is back, so it ends within the cut-off and a commandTimeout.
  expect(measures.longestAcquireTryMs, 'longest failed acquire try, ms').toBeLessThanOrEqual(
    Math.max(watchdogTimeout, cutOffMs) + commandTimeout + CALL_SLACK_MS,
  );
  expectPermitsRecovered(measures);
}

/**
 * What must hold of every permit run, also where a failover may invent or lose permits: every
 * client host with grants left at the last heal granted again after it.
 */
export function expectPermitsRecovered(measures: PermitMeasures): void {
  expect(measures.hostsWithGrantsLeft, 'client hosts with grants left at the heal').toBeGreaterThan(0);
  expect(measures.recoveredHosts, 'client hosts granted a permit after the heal').toBe(measures.hostsWithGrantsLeft);
}

// The silent-host checks, with the longest cut-off of the run.
function expectHeldThroughCutOffs(measures: PermitMeasures, run: ChaosPermitOptions, report: ChaosPermitReport) {
  const cutOffMs = Math.max(...report.faults.cutOffs.map((cut) => cut.to - cut.from)) / 1000;
  expectPermitsHeld(measures, run, cutOffMs);
}

/** Runs the scenario, records it for `results/chaos.*` (with whether it held), then checks it. */
export async function runChaosPermitScenario(scenario: ChaosPermitScenario): Promise<PermitMeasures> {
  const started = performance.now();
  const { run } = scenario;
  // A Semaphore's permits have no lease.
  const leaseMs = run.kind.leased ? run.watchdogTimeout : 0;
  const head = {
    testFile: scenario.testFile,
    scenario: scenario.scenario,
    adapter: run.adapter,
    lock: run.kind.id,
    tried: scenario.tried,
    leaseMs,
    commandTimeoutMs: run.commandTimeout,
  };
  const report = await recordedIfUnfinished(head, started, runChaosPermits(run));
  if (report.stalled) console.log(`chaos ${run.label}: no permit granted for a while after the faults, workers killed`);
  const measures = permitMeasures(report, run);
  const { grants, holdersOverLimit, markedHeldAtEnd, hostsWithGrantsLeft, ...common } = measures;
  const released = report.workers.flatMap((worker) => worker.events.filter((event) => event.event === 'released'));
  const record = {
    ...head,
    faults: report.faults.total,
    operations: grants,
    overlaps: holdersOverLimit,
    lostUpdates: 0,
    holdsLost: released.filter((event) => event.outcome !== 'released').length,
    ...common,
    permits: run.permits,
    permitsHeldAtEnd: markedHeldAtEnd,
    // The hosts that had to be granted again after the heal (`recoveredHosts` of them).
    clientHosts: hostsWithGrantsLeft,
    ...(scenario.split === undefined ? {} : { split: scenario.split(report) }),
    ...(scenario.measuredOnly === true ? { measuredOnly: true } : {}),
  };
  recordChecked(record, started, () =>
    scenario.check === undefined ? expectHeldThroughCutOffs(measures, run, report) : scenario.check(measures, run),
  );
  return measures;
}

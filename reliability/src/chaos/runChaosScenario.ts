import { hammerFigures } from '../hammer/verifyHammer.js';
import { recordFigures } from '../results/figures.js';
import { expectChaosHeld } from './chaosChecks.js';
import { chaosMeasures } from './chaosMeasures.js';
import { recordChaos, recordedIfUnfinished, type ChaosRecord, type ChaosSplitFigures } from './chaosRecord.js';
import type { CopiesAtJump } from './redlockCopies.js';
import { runChaosHammer, type ChaosHammerOptions, type ChaosHammerReport } from './runChaosHammer.js';

/** One scenario of issue 32 on one adapter: a chaos hammer run, its checks and its records. */
export interface ChaosScenario {
  /** The test's `import.meta.url`. */
  readonly testFile: string;
  /** The scenario, as the results name it. */
  readonly scenario: string;
  /** What the run does, in words. */
  readonly tried: string;
  readonly run: ChaosHammerOptions;
  /**
   * Whether every hold open at a cut-off must see its signal abort before its lease could end,
   * also one whose release was already called (true unless told); otherwise leaving the critical
   * section in time is enough.
   */
  readonly signalsMustAbort?: boolean;
  /**
   * What must hold instead of the silent-host checks ({@link expectChaosHeld}): for a split with a
   * failover, where no host is cut off from every master.
   */
  readonly check?: (report: ChaosHammerReport, record: ChaosFigures) => void;
  /**
   * The run measures a setting that promises nothing under the fault (its `check` leaves the
   * exclusion unchecked): recorded as `measuredOnly`, so that a lucky run is never read as kept.
   */
  readonly measuredOnly?: boolean;
  /** What a split with a failover saw, from the run's report; none when absent. */
  readonly split?: (report: ChaosHammerReport) => ChaosSplitFigures;
  /** The holder's copies at each clock jump of a RedLock run (filled in as the run goes). */
  readonly copiesAtJumps?: readonly CopiesAtJump[];
}

/** What a chaos run recorded, as its checks see it. */
export type ChaosFigures = Omit<ChaosRecord, 'file' | 'held' | 'durationMs'>;

/**
 * Runs the scenario's hammer, records its figures (for `results/latest.*`, under `<adapter>/chaos`)
 * and its chaos record (for `results/chaos.*`, with whether it held), then checks it.
 */
export async function runChaosScenario(scenario: ChaosScenario): Promise<ChaosHammerReport> {
  const started = performance.now();
  const { run } = scenario;
  const leaseMs = run.shape.watchdogTimeout;
  const locks = run.subjects.map(({ label }) => label);
  const report = await recordedIfUnfinished(
    {
      testFile: scenario.testFile,
      scenario: scenario.scenario,
      adapter: run.adapter,
      locks,
      tried: scenario.tried,
      leaseMs,
      commandTimeoutMs: run.shape.commandTimeout,
    },
    started,
    runChaosHammer(run),
  );
  const measures = chaosMeasures(report, leaseMs);
  const figures = hammerFigures(report);
  recordFigures(scenario.testFile, `${run.adapter}/chaos`, figures);
  const record = {
    testFile: scenario.testFile,
    scenario: scenario.scenario,
    adapter: run.adapter,
    locks,
    tried: scenario.tried,
    faults: report.faults.total,
    operations: figures.operations ?? 0,
    overlaps: figures.overlaps ?? 0,
    lostUpdates: figures.lostUpdates ?? 0,
    holdsLost: report.holds.filter((hold) => hold.lost || hold.outcome === 'not-held').length,
    doubleGrants: report.overlaps.length,
    // Counted where the store checks every hold's token: a run of fenced locks only.
    ...(run.subjects.every(({ kind }) => kind.id === 'FencedLock')
      ? { staleWritesRefused: report.holds.filter((hold) => hold.rejected).length }
      : {}),
    ...(scenario.split === undefined ? {} : { split: scenario.split(report) }),
    ...(scenario.copiesAtJumps === undefined ? {} : { copiesAtJumps: scenario.copiesAtJumps }),
    ...(scenario.measuredOnly === true ? { measuredOnly: true } : {}),
    leaseMs,
    commandTimeoutMs: run.shape.commandTimeout,
    ...measures,
  };
  console.log(`chaos ${scenario.scenario} on ${run.adapter}: ${JSON.stringify({ ...record, testFile: undefined })}`);
  try {
    if (scenario.check === undefined)
      expectChaosHeld(report, measures, leaseMs, run.shape.commandTimeout, scenario.signalsMustAbort ?? true);
    else scenario.check(report, record);
  } catch (error) {
    recordChaos({ ...record, held: false, durationMs: Math.round(performance.now() - started) });
    throw error;
  }
  recordChaos({ ...record, held: true, durationMs: Math.round(performance.now() - started) });
  return report;
}

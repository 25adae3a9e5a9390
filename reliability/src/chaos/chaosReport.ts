import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHAOS_RECORDS_DIR, type ChaosRecord } from './chaosRecord.js';
import { isChaosScenarioFile } from './chaosScenarioFiles.js';

/** `results/chaos.json`: every chaos run of one `pnpm chaos`. */
export interface ChaosResults {
  readonly date: string;
  readonly machine: string;
  /** Runs whose checks all passed, of `runs.length`. */
  readonly held: number;
  readonly runs: readonly ChaosRecord[];
}

/**
 * The global setup's hook: merges the chaos records in `runDir` into `chaos.json` and `chaos.md` in
 * `resultsDir`. Each run replaces the row of its scenario, adapter and lock; the other rows stay
 * (running one file, adapter or test while iterating never drops the others'); rows of files that
 * are no longer scenarios in `testDir` go. Returns whether it wrote them.
 */
export function publishChaos(runDir: string, testDir: string, resultsDir: string): boolean {
  const dir = path.join(runDir, CHAOS_RECORDS_DIR);
  const fresh = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as ChaosRecord)
    : [];
  if (fresh.length === 0) return false;
  const scenarioFiles = new Set(
    fs
      .readdirSync(testDir)
      .filter(isChaosScenarioFile)
      .map((name) => name.replace(/\.test\.ts$/, '')),
  );
  // A run replaces the earlier row of the same scenario, adapter and lock: a run narrowed to some
  // adapters or tests (DEADBOLT_BACKENDS, -t, as `pnpm chaos:ci` does) keeps the others' rows.
  const rowOf = (run: ChaosRecord) => JSON.stringify([run.file, run.scenario, run.adapter, run.lock ?? null]);
  const ran = new Set(fresh.map(rowOf));
  const kept =
    readChaosResults(resultsDir)?.runs.filter((run) => !ran.has(rowOf(run)) && scenarioFiles.has(run.file)) ?? [];
  const runs = [...kept, ...fresh].sort(
    (a, b) =>
      a.scenario.localeCompare(b.scenario) ||
      a.adapter.localeCompare(b.adapter) ||
      (a.lock ?? '').localeCompare(b.lock ?? ''),
  );
  const missing = [...scenarioFiles].filter((file) => !runs.some((run) => run.file === file));
  const results: ChaosResults = {
    date: new Date().toISOString(),
    machine: `${os.availableParallelism()} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1) ?? '?'}`,
    held: runs.filter((run) => run.held).length,
    runs,
  };
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'chaos.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(resultsDir, 'chaos.md'), renderChaos(results));
  console.log(
    `chaos: ${results.held} of ${runs.length} runs held (${fresh.length} from this run` +
      `${missing.length > 0 ? `; none yet from ${missing.join(', ')}` : ''}); written to reliability/results/chaos.{json,md}`,
  );
  return true;
}

/** The chaos results in `resultsDir`, if there are any. */
export function readChaosResults(resultsDir: string): ChaosResults | undefined {
  const file = path.join(resultsDir, 'chaos.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as ChaosResults) : undefined;
}

const COLUMNS: readonly [string, (run: ChaosRecord) => string | number][] = [
  ['held', (run) => (run.held ? 'yes' : '**no**')],
  ['faults', (run) => run.faults],
  ['operations', (run) => run.operations],
  ['overlaps', (run) => run.overlaps],
  ['updates lost', (run) => run.lostUpdates],
  ['double grants', (run) => run.doubleGrants ?? '–'],
  ['failover, ms', (run) => run.split?.failoverMs ?? '–'],
  [
    'grants in the split, minority / majority',
    (run) => (run.split === undefined ? '–' : `${run.split.minorityGrants} / ${run.split.majorityGrants}`),
  ],
  [
    'permits: most holders / free at the end / of',
    (run) => (run.permits === undefined ? '–' : `${run.mostHolders} / ${run.permitsAtEnd} / ${run.permits}`),
  ],
  ['latch countdowns lost', (run) => run.countdownsLost ?? '–'],
  ['holds open at the cut-off', (run) => run.holdsAtFault],
  ['told before lease end', (run) => run.holdsToldInTime],
  ['told before work ended', (run) => run.holdsTold ?? '–'],
  ['slowest told, ms', (run) => run.slowestToldMs ?? '–'],
  ['stale writes refused', (run) => run.staleWritesRefused ?? '–'],
  ['out before lease end, untold', (run) => run.holdsLeftInTime],
  ['grants while cut off', (run) => run.grantsWhileCutOff],
  ['least margin, ms', (run) => run.leastAbortMarginMs ?? '–'],
  ['longest failed release try, ms', (run) => run.longestReleaseTryMs],
  ['longest failed acquire try, ms', (run) => run.longestAcquireTryMs],
  ['commandTimeout / lease, ms', (run) => `${run.commandTimeoutMs} / ${run.leaseMs}`],
  ['hosts recovered', (run) => `${run.recoveredHosts} of ${run.clientHosts}`],
  ['run, s', (run) => (run.durationMs / 1000).toFixed(1)],
];

/** The results as a markdown page. */
export function renderChaos(results: ChaosResults): string {
  const scenarios = [...new Map(results.runs.map((run) => [run.scenario, run.tried])).entries()];
  return [
    '# Deadbolt under real faults (chaos runs)',
    '',
    `${results.date} — ${results.machine}. ${results.held} of ${results.runs.length} runs held.`,
    '',
    'Test hosts are network namespaces on a bridge of their own; a host is cut off by taking its',
    'link down (silent: no RST, connections stay open); client clocks are faked with libfaketime.',
    'See `reliability/README.md` in the repository for the checks.',
    '',
    '## What was tried',
    '',
    ...scenarios.map(([scenario, tried]) => `- **${scenario}**: ${tried}.`),
    '',
    '## Runs',
    '',
    `| scenario | adapter (lock) | ${COLUMNS.map(([name]) => name).join(' | ')} |`,
    `| --- | --- |${' ---: |'.repeat(COLUMNS.length)}`,
    ...results.runs.map(
      (run) =>
        `| ${run.scenario} | ${run.adapter}${run.lock === undefined ? '' : ` (${run.lock})`} | ${COLUMNS.map(([, value]) => value(run)).join(' | ')} |`,
    ),
    '',
  ].join('\n');
}

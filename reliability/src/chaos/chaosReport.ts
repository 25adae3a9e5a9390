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
 * The global setup's hook: writes `chaos.json` and `chaos.md` into `resultsDir` from the chaos
 * records in `runDir`, when every scenario file in `testDir` (`chaos-*.test.ts` but the harness's
 * own) left one; otherwise leaves them as they were and says so. Returns whether it wrote them.
 */
export function publishChaos(runDir: string, testDir: string, resultsDir: string): boolean {
  const dir = path.join(runDir, CHAOS_RECORDS_DIR);
  const runs = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as ChaosRecord)
        .sort((a, b) => a.scenario.localeCompare(b.scenario) || a.adapter.localeCompare(b.adapter))
    : [];
  if (runs.length === 0) return false;
  const scenarioFiles = fs
    .readdirSync(testDir)
    .filter(isChaosScenarioFile)
    .map((name) => name.replace(/\.test\.ts$/, ''));
  const missing = scenarioFiles.filter((file) => !runs.some((run) => run.file === file));
  if (missing.length > 0) {
    console.log(`chaos: partial run (none from ${missing.join(', ')}); results/chaos.* left as they were`);
    return false;
  }
  const results: ChaosResults = {
    date: new Date().toISOString(),
    machine: `${os.availableParallelism()} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1) ?? '?'}`,
    held: runs.filter((run) => run.held).length,
    runs,
  };
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'chaos.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(resultsDir, 'chaos.md'), renderChaos(results));
  console.log(`chaos: ${results.held} of ${runs.length} runs held; written to reliability/results/chaos.{json,md}`);
  return true;
}

const COLUMNS: readonly [string, (run: ChaosRecord) => string | number][] = [
  ['held', (run) => (run.held ? 'yes' : '**no**')],
  ['faults', (run) => run.faults],
  ['operations', (run) => run.operations],
  ['overlaps', (run) => run.overlaps],
  ['updates lost', (run) => run.lostUpdates],
  ['holds open at the cut-off', (run) => run.holdsAtFault],
  ['told before lease end', (run) => run.holdsToldInTime],
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
    `| scenario | adapter | ${COLUMNS.map(([name]) => name).join(' | ')} |`,
    `| --- | --- |${' ---: |'.repeat(COLUMNS.length)}`,
    ...results.runs.map(
      (run) => `| ${run.scenario} | ${run.adapter} | ${COLUMNS.map(([, value]) => value(run)).join(' | ')} |`,
    ),
    '',
  ].join('\n');
}

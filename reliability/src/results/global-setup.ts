// The reliability project's vitest global setup: before any test file runs, a run directory where
// each test records its figures (see recordFigures); after the last one, the figures added up into
// results/latest.json and results/latest.md, but only when every test file of the suite ran, so
// that running one file while iterating never overwrites the published record with a part of it.
// The chaos runs (src/chaos) are merged into results/chaos.json and chaos.md, scenario file by
// scenario file (see publishChaos); the suite's record does not wait for them (`pnpm test` leaves
// them out: chaosScenarioFiles.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FigureRecord } from './figures.js';
import { RESULTS_RUN_DIR_ENV } from './figures.js';
import { publishChaos } from '../chaos/chaosReport.js';
import { isChaosScenarioFile } from '../chaos/chaosScenarioFiles.js';
import { renderMarkdown, summarise } from './report.js';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const TEST_DIR = path.join(PACKAGE_DIR, 'test');
const RESULTS_DIR = path.join(PACKAGE_DIR, 'results');
// Tests of the suite's own checks: they inject no fault and record no figures.
const UNRECORDED_FILES = ['checks', 'permit-checks'];

export function setup(): () => void {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-reliability-run-'));
  process.env[RESULTS_RUN_DIR_ENV] = runDir;
  return () => {
    delete process.env[RESULTS_RUN_DIR_ENV];
    try {
      publishChaos(runDir, TEST_DIR, RESULTS_DIR);
      publish(readRecords(runDir));
    } finally {
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  };
}

function readRecords(runDir: string): FigureRecord[] {
  return fs
    .readdirSync(runDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(runDir, name), 'utf8')) as FigureRecord);
}

function publish(records: readonly FigureRecord[]): void {
  const suiteFiles = fs
    .readdirSync(TEST_DIR)
    .filter((name) => name.endsWith('.test.ts') && !isChaosScenarioFile(name))
    .map((name) => name.replace(/\.test\.ts$/, ''))
    .filter((file) => !UNRECORDED_FILES.includes(file));
  const reported = new Set(records.map((record) => record.file));
  const missing = suiteFiles.filter((file) => !reported.has(file));
  if (missing.length > 0) {
    console.log(`reliability: partial run (no figures from ${missing.join(', ')}); results/latest.* left as they were`);
    return;
  }
  const results = summarise(records);
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), renderMarkdown(results));
  const { totals } = results;
  console.log(
    `reliability: ${totals.faultsInjected} faults injected, ${totals.operations} operations completed, ${totals.overlaps} overlaps, ` +
      `${totals.lostUpdates} updates lost, ${totals.badInputs} bad inputs tried, ${totals.modelSteps} model-based steps run, ${totals.redissonPeerHolds} Redisson-peer holds, ` +
      `${totals.lateDeliveries ?? 0} late deliveries, ${totals.lateResends ?? 0} long-partition re-sends, ${totals.permitMiscounts ?? 0} semaphore counts off, ${totals.latchesOpenedEarly ?? 0} latches opened early; written to reliability/results/latest.{json,md}`,
  );
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelReport } from './runModel.js';

// The reliability suite's run directory (see reliability/src/results/figures.ts): set by its
// vitest global setup when the whole workspace runs, so the record counts the model's steps.
const RESULTS_RUN_DIR_ENV = 'DEADBOLT_RELIABILITY_RUN_DIR';
let sequence = 0;

/**
 * Adds a model check's steps and overlaps to the reliability record of this test run, when the
 * reliability suite is recording one (otherwise does nothing). Written as the reliability
 * suite's figure records are: one file per record, renamed into place whole.
 */
export function recordModelSteps(testFile: string, scope: string, report: ModelReport): void {
  const runDir = process.env[RESULTS_RUN_DIR_ENV];
  if (runDir === undefined || !fs.existsSync(runDir)) return;
  const file = path.basename(fileURLToPath(testFile)).replace(/\.test\.ts$/, '');
  const record = { faults: {}, operations: 0, overlaps: report.overlaps, modelSteps: report.steps, file, scope };
  const target = path.join(runDir, `${file}.${report.kind}.${process.pid}.${++sequence}.json`);
  fs.writeFileSync(`${target}.tmp`, JSON.stringify(record));
  fs.renameSync(`${target}.tmp`, target);
}

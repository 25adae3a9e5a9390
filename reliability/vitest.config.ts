import fs from 'node:fs';
import { configDefaults, mergeConfig } from 'vitest/config';
import { CHAOS_RUN_ENV, isChaosScenarioFile } from './src/chaos/chaosScenarioFiles';
import { packageProject } from '../vitest.shared';

// The chaos scenarios run in `pnpm chaos` only, one file at a time (see chaosScenarioFiles.ts).
const chaosScenarios = fs
  .readdirSync(new URL('./test/', import.meta.url))
  .filter(isChaosScenarioFile)
  .map((name) => `test/${name}`);

// The harness's global setup (every redis-server stopped at the end) plus the suite's own, which
// adds up the figures of every test into results/latest.json and latest.md.
export default mergeConfig(packageProject('@deadbolt/reliability', { redis: true }), {
  test: {
    globalSetup: [new URL('./src/results/global-setup.ts', import.meta.url).pathname],
    exclude: [...configDefaults.exclude, ...(process.env[CHAOS_RUN_ENV] === undefined ? chaosScenarios : [])],
  },
});

// Which test files are chaos scenarios: `chaos-*.test.ts` but the harness's own checks. They
// place hosts and hold through faults for seconds each (about 7 minutes in all on this machine),
// with timing limits that a machine running other test files at the same time would blur, so
// `pnpm chaos` runs them one at a time and `pnpm test` leaves them out; their figures go to
// results/chaos.* and not into the suite's latest.*.

/** Set (to anything) by `pnpm chaos`: the suite then includes the chaos scenarios. */
export const CHAOS_RUN_ENV = 'DEADBOLT_CHAOS';

/** Whether `fileName` (a test file's name, without directory) is a chaos scenario. */
export function isChaosScenarioFile(fileName: string): boolean {
  return /^chaos-.*\.test\.ts$/.test(fileName) && fileName !== 'chaos-harness.test.ts';
}

/**
 * Now on the machine's monotonic clock, in microseconds. `process.hrtime` reads CLOCK_MONOTONIC,
 * which on Linux is one clock for every process, so times taken in different child processes
 * and in the test process compare directly.
 */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

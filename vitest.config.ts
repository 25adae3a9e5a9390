import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'demo', 'bench', 'reliability', 'examples', 'docs'],
    reporters: ['default'],
    // Two test files at a time on the 2-core CI machine (vitest's default is one fewer worker than
    // cores): most files wait on Redis, leases and timers rather than the CPU. Measured: the whole
    // .ci/run in 24.7 min with two files at a time, with other work loading the machine, against
    // 29.8 min one at a time on a quiet one; every timing test passed.
    maxWorkers: 2,
  },
});

import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { CONTENDERS } from '../src/contenders/index.js';

const require = createRequire(import.meta.url);

// The scenarios a run reports, by the start of their headings.
const SCENARIOS = [
  '1. Uncontended',
  '1b. Fenced lock and replica sync',
  '1c. Client events',
  '2. Parallel',
  '3. Contended handoff: 8 waiters',
  '3. Contended handoff: 128 waiters',
  '4. Fair lock: 8 waiters',
  '4. Fair lock: 128 waiters',
  '3b. Cost per acquisition',
  '3c. Contended, 2 ms holds: 8 waiters',
  '3c. Contended, 2 ms holds: 128 waiters',
  '3c. Contended, 20 ms holds: 8 waiters',
  '3c. Contended, 20 ms holds: 128 waiters',
  '4b. What fairness costs Deadbolt',
  '5. Read-write lock',
  '6. RedLock over 5 servers',
  '7. Watchdog at scale',
  '8. Memory',
  '9a. Semaphore',
  '9b. Semaphore, contended',
  '9c. Semaphore',
];

// A guard against a hang, not a speed check: the smoke run took 113 s in .ci/run on a slow day and
// over 150 s beside the docs crawl and the release test.
const SMOKE_TIMEOUT_MS = 300_000;

it(
  'a smoke run reports every scenario, with every contender in each: a row, or n/a and why',
  async () => {
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', require.resolve('tsx'), main, '--smoke'],
      {
        timeout: SMOKE_TIMEOUT_MS,
        maxBuffer: 16 * 2 ** 20,
      },
    );
    const report = stdout.slice(stdout.indexOf('# Deadbolt benchmarks'));
    const sections = report.split(/^## /m).slice(1);
    const headings = sections.map((section) => section.split('\n')[0]!);
    for (const scenario of SCENARIOS)
      expect(
        headings.some((heading) => heading.startsWith(scenario)),
        scenario,
      ).toBe(true);
    for (const section of sections.filter((section) => /^\d/.test(section))) {
      const heading = section.split('\n')[0];
      expect(section, heading).toMatch(/^Measures: /m);
      expect(section, heading).toMatch(/^Floor: /m);
      for (const contender of CONTENDERS) {
        const row = new RegExp(`^\\| ${contender.id}( \\(fair\\))? \\|`, 'm').test(section);
        const absent = section.includes(`- ${contender.id}: n/a (`);
        expect(row || absent, `${contender.id} in ${heading}`).toBe(true);
      }
      // Deadbolt itself never fails a scenario.
      expect(section, heading).not.toMatch(/^- deadbolt\/[^:]+: n\/a \(failed/m);
    }
    // The contenders table names every contender with its pinned version.
    for (const contender of CONTENDERS) expect(report).toContain(`| ${contender.id} | ${contender.library} |`);
  },
  SMOKE_TIMEOUT_MS + 30_000,
);

import { fileURLToPath } from 'node:url';
import { startStandalone } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { comparedRows, renderComparison } from '../src/compare/report.js';
import type { CompareJob } from '../src/compare/jobs.js';
import { runWorkers } from '../src/compare/runWorkers.js';
import { COMPARED_SCENARIOS, type ComparedScenario } from '../src/compare/scenarios.js';

// `pnpm bench:compare`: the report's arithmetic without Redis, and each scenario's run through
// its worker processes on this checkout's build (the base build is the same code at another
// commit, loaded the same way).

const scenario: ComparedScenario = {
  id: 'test',
  title: 'T. Test',
  figures: [
    { key: 'perSecond', label: 'per second', better: 'higher' },
    { key: 'waitMs', label: 'wait ms', better: 'lower' },
  ],
  run: () => Promise.reject(new Error('not run')),
};

describe('the comparison report', () => {
  it('pairs the runs, turns each ratio so that above 1 is better for the head, and calls a side only when every pair agrees', () => {
    const rows = comparedRows([
      {
        scenario,
        driver: 'ioredis',
        base: [
          { perSecond: 100, waitMs: 10 },
          { perSecond: 100, waitMs: 10 },
          { perSecond: 200, waitMs: 10 },
        ],
        head: [
          { perSecond: 110, waitMs: 20 },
          { perSecond: 90, waitMs: 5 },
          { perSecond: 240, waitMs: 40 },
        ],
      },
    ]);
    expect(rows).toMatchObject([
      {
        figure: 'per second',
        base: 100,
        head: 110,
        ratio: { ratios: [1.1, 0.9, 1.2], median: 1.1, call: 'within noise' },
      },
      { figure: 'wait ms', base: 10, head: 20, ratio: { ratios: [0.5, 2, 0.25], median: 0.5, call: 'within noise' } },
    ]);
    const [better] = comparedRows([
      { scenario, driver: 'node-redis', base: [{ perSecond: 1, waitMs: 2 }], head: [{ perSecond: 2, waitMs: 4 }] },
    ]);
    expect(better?.ratio?.call).toBe('ahead');
    const markdown = renderComparison(
      {
        date: 'd',
        machine: 'm',
        baseRef: 'v1',
        baseCommit: 'abc',
        headRef: 'this checkout',
        headCommit: 'def',
        pairs: 3,
      },
      rows,
    );
    expect(markdown).toContain('| T. Test | ioredis | per second | 100 | 110 | 1.1 (0.9–1.2) | within noise |');
  });
});

describe('the compared runs, on this checkout', () => {
  const checkout = fileURLToPath(new URL('../..', import.meta.url));

  it.each(COMPARED_SCENARIOS.map((compared) => [compared.title, compared] as const))(
    '%s runs and measures every figure it reports',
    async (_title, compared) => {
      const server = await startStandalone();
      try {
        const figures = await compared.run(checkout, 'ioredis', server.port, 0);
        for (const { key } of compared.figures) expect(figures[key], key).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    },
  );

  it('a worker that fails stops the others, which would wait for a start that never comes, and the run rejects', async () => {
    const server = await startStandalone();
    try {
      const working: CompareJob = {
        checkout,
        driver: 'ioredis',
        port: server.port,
        work: { kind: 'cycles', tasks: 1, cyclesPerTask: 1 },
      };
      const failing: CompareJob = { ...working, checkout: '/nonexistent-deadbolt-checkout' };
      await expect(runWorkers([working, failing])).rejects.toThrow(/a compare worker exited/);
    } finally {
      await server.stop();
    }
  });
});

import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

it('a smoke run of the benchmarks completes and reports every scenario for both adapters and lock kinds', async () => {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', require.resolve('tsx'), main, '--smoke'], { timeout: 100_000 });
  expect(stdout).toContain('## uncontended');
  expect(stdout).toContain('## read-write');
  for (const waiters of [8, 128]) {
    for (const scenario of ['handoff', 'fair handoff', 'fair vs plain']) expect(stdout).toContain(`## ${scenario} (${waiters} waiters)`);
  }
  // Every scenario has one row per adapter.
  const scenarios = stdout.match(/^## /gm) ?? [];
  expect(stdout.match(/^\| (ioredis|node-redis) \|/gm)).toHaveLength(2 * scenarios.length);
}, 120_000);

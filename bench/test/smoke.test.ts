import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

it('a smoke run of the benchmarks completes and reports every scenario for both adapters', async () => {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', require.resolve('tsx'), main, '--smoke'], { timeout: 100_000 });
  expect(stdout).toContain('## uncontended');
  expect(stdout).toContain('## handoff (8 waiters)');
  expect(stdout).toContain('## handoff (128 waiters)');
  expect(stdout.match(/^\| (ioredis|node-redis) \|/gm)).toHaveLength(6);
}, 120_000);

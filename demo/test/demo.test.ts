import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

it('the demo runs its contention end to end and loses no update', async () => {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', require.resolve('tsx'), main], { timeout: 60_000 });
  expect(stdout).toMatch(/60 holds in [\d.]+ s; counter = 60; lost updates: 0/);
  expect(stdout.match(/holds the lock/g)).toHaveLength(60);
}, 90_000);

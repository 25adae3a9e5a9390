import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

it('the demo runs its contention end to end, loses no update, and shows the fair lock granting in arrival order', async () => {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', require.resolve('tsx'), main], { timeout: 60_000 });
  expect(stdout).toMatch(/60 holds in [\d.]+ s; counter = 60; lost updates: 0/);
  expect(stdout.match(/holds the lock/g)).toHaveLength(60);
  // The handoff order run: the plain lock grants in whatever order, the fair lock in arrival order.
  expect(stdout).toMatch(/^ {2}Lock {6}(w\d+ ){12} \((not )?arrival order\)$/m);
  expect(stdout).toMatch(/^ {2}FairLock {2}w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 {2}\(arrival order\)$/m);
  // The read-write lock run: the readers overlap, and the writer gets in only after the last one.
  expect(stdout).toMatch(/reader3 reading {2}\(3 reading at once\)/);
  expect(stdout).toMatch(/reader3 done\n.*writer writing {2}\(0 reading, waited \d+ ms\)/);
}, 90_000);

// The demo as `pnpm demo` runs it (main.ts through tsx, in a process of its own): the whole tour
// with every section's verdict, one section picked by name, and an unknown name refused.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SECTIONS = ['lock', 'fair', 'rwlock', 'fenced', 'multilock', 'redlock', 'semaphore', 'latch'];
const KINDS = [
  'Lock',
  'FairLock',
  'ReadWriteLock',
  'FencedLock',
  'MultiLock',
  'RedLock',
  'Semaphore',
  'CountDownLatch',
];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the demo with `args` and resolves with how it ended, whatever the exit code. */
function demo(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', require.resolve('tsx'), main, ...args],
      { timeout: 50_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

const verdicts = (stdout: string) => stdout.match(/^[✔✘] .*$/gm) ?? [];

it('the whole tour runs every section, each with a ✔ verdict from what it observed, and lists them all at the end', async () => {
  const { code, stdout, stderr } = await demo();
  expect(stderr).toBe('');
  expect(verdicts(stdout).filter((line) => line.startsWith('✘'))).toEqual([]);
  expect(code).toBe(0);
  // Lock: the contention loses no update.
  expect(stdout).toMatch(/60 holds in [\d.]+ s; counter = 60; lost updates: 0/);
  expect(stdout.match(/^process\d\/task\d {2}holds the lock/gm)).toHaveLength(60);
  expect(stdout).toMatch(/^✔ Lock: 60 holds by 4 processes, counter 60: no update lost$/m);
  // FairLock: the plain lock grants in whatever order, the fair lock in arrival order.
  expect(stdout).toMatch(/^ {2}Lock {6}(w\d+ ){12} \((not )?arrival order\)$/m);
  expect(stdout).toMatch(/^ {2}FairLock {2}w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 {2}\(arrival order\)$/m);
  expect(stdout).toMatch(
    /^✔ FairLock: granted 12 waiters in arrival order \(the plain Lock (happened to as well|did not)\)$/m,
  );
  // ReadWriteLock: the readers overlap, and the writer gets in only after the last one.
  expect(stdout).toMatch(/reader3 reading {2}\(3 reading at once\)/);
  expect(stdout).toMatch(/reader3 done\n.*writer writing {2}\(0 reading, waited \d+ ms\)/);
  expect(stdout).toMatch(
    /^✔ ReadWriteLock: 3 readers at once; the writer waited \d+ ms, until the last one was done$/m,
  );
  // FencedLock: the stale holder's token is the lower one, and its write is refused.
  expect(stdout).toMatch(/A writes "120 from A" with token \d+: REFUSED/);
  const [, stale, current] = /^✔ FencedLock: stale write refused \(token (\d+) < (\d+)\)$/m.exec(stdout) ?? [];
  expect(BigInt(stale ?? 'x') < BigInt(current ?? 'x')).toBe(true);
  // MultiLock: nothing taken while a member was held elsewhere; opposite orders all finished.
  expect(stdout).toMatch(/transfer got: nothing; alice locked: false/);
  expect(stdout).toMatch(
    /^✔ MultiLock: all or nothing \(alice stayed free while bob was held elsewhere\); 10 holds in opposite orders, one at a time, no deadlock$/m,
  );
  // RedLock: one of three servers SIGKILLed, the hold survives on the quorum, a rival stays out.
  expect(stdout).toMatch(/killed redis-server pid \d+ \(port \d+\) with SIGKILL/);
  expect(stdout).toMatch(/still held on 2 of 3, lock lost: false/);
  expect(stdout).toMatch(/a second RedLock tries for \d+ ms: excluded/);
  expect(stdout).toMatch(
    /^✔ RedLock: still held by 2 of 3 after a SIGKILL; a second RedLock excluded until the release$/m,
  );
  // Semaphore: never more jobs at once than permits, and the job that needs every permit runs alone.
  expect(stdout.match(/job\d encoding {2}\(\d running/g)).toHaveLength(6);
  expect(stdout).not.toMatch(/job\d encoding {2}\([3-9] running/);
  expect(stdout).toMatch(/re-index running {2}\(2 permits, 0 jobs beside it\)/);
  expect(stdout).toMatch(
    /^✔ Semaphore: at most 2 of 6 jobs at once; the 2-permit re-index ran alone; all 2 permits back$/m,
  );
  // CountDownLatch: the deploy's wait ends only after the third service counted down.
  expect(stdout).toMatch(/scheduler reports ready\n.*deploy starts {2}\(3 of 3 reported\)/);
  expect(stdout).toMatch(/^✔ CountDownLatch: the deploy waited until all 3 services had reported$/m);
  // Every section once in order, then the summary repeats every verdict in the same order.
  const sections = [...stdout.matchAll(/^== (\d)\/8 (\w+) ==$/gm)].map(([, , kind]) => kind);
  expect(sections).toEqual(KINDS);
  const [inline, summary] = stdout.split('\n== Verdicts ==\n');
  expect(verdicts(summary ?? '')).toEqual(verdicts(inline ?? ''));
  expect(verdicts(summary ?? '').map((line) => line.split(':')[0])).toEqual(KINDS.map((kind) => `✔ ${kind}`));
}, 60_000);

it('`pnpm demo fenced` runs the FencedLock section alone', async () => {
  const { code, stdout } = await demo('fenced');
  expect(code).toBe(0);
  expect(stdout).toMatch(/^== 1\/1 FencedLock ==$/m);
  expect(verdicts(stdout)).toEqual([expect.stringMatching(/^✔ FencedLock: stale write refused \(token \d+ < \d+\)$/)]);
  expect(stdout).not.toMatch(/Verdicts|task\d {2}holds the lock|RedLock/);
}, 30_000);

it('an unknown section name prints the sections and exits non-zero, starting nothing', async () => {
  const { code, stdout, stderr } = await demo('fencd');
  expect(code).toBe(2);
  expect(stdout).toBe('');
  expect(stderr).toMatch(/Unknown section "fencd"/);
  for (const name of SECTIONS) expect(stderr).toMatch(new RegExp(`^ {2}${name} +\\w+: `, 'm'));
}, 30_000);

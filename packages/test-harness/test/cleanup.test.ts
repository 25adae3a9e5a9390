import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { isAlive, reapRunDir, RUN_DIR_ENV, startStandalone } from '../src/index.js';
import { runFixture, waitUntilGone } from './helpers.js';

/** A script outside vitest has no run dir; make sure the child does not inherit ours. */
const scriptEnv = { [RUN_DIR_ENV]: undefined };

describe('servers never outlive the process that started them', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('a tsx script killed with %s takes its servers down', async (signal) => {
    const fixture = runFixture('start-and-wait', { ...scriptEnv, FIXTURE_MODE: 'wait' });
    const { pids, dirs } = (await fixture.firstJson) as { pids: number[]; dirs: string[] };
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    fixture.child.kill(signal);
    const exit = await fixture.exited;
    // The handler re-raises the signal, so the script still dies "by signal".
    expect(exit.signal).toBe(signal);
    await waitUntilGone(pids);
    for (const dir of dirs) expect(fs.existsSync(dir)).toBe(false);
  });

  it('a script that returns without stopping its servers takes them down on exit', async () => {
    const fixture = runFixture('start-and-wait', { ...scriptEnv, FIXTURE_MODE: 'return' });
    const { pids, dirs } = (await fixture.firstJson) as { pids: number[]; dirs: string[] };
    expect((await fixture.exited).code).toBe(0);
    await waitUntilGone(pids);
    for (const dir of dirs) expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('the run-dir registry behind the global teardown', () => {
  it('kills servers orphaned by a worker that died without cleanup (SIGKILL)', async () => {
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-test-run-'));
    const fixture = runFixture('start-and-wait', { [RUN_DIR_ENV]: runDir, FIXTURE_MODE: 'wait' });
    const { pids, dirs } = (await fixture.firstJson) as { pids: number[]; dirs: string[] };
    fixture.child.kill('SIGKILL');
    await fixture.exited;
    // Nothing in the dead process could clean up: the servers are orphans now.
    for (const pid of pids) expect(isAlive(pid)).toBe(true);
    const result = await reapRunDir(runDir);
    expect(result).toEqual({ started: 3, killed: 3, leftRunning: [] });
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    for (const dir of dirs) expect(fs.existsSync(dir)).toBe(false);
    fs.rmSync(runDir, { recursive: true, force: true });
  });

  it('global setup + teardown: kills what is left and reports it in one line', async () => {
    const fixture = runFixture('setup-teardown', scriptEnv);
    const { runDir, pids } = (await fixture.firstJson) as { runDir: string; pids: number[] };
    expect((await fixture.exited).code).toBe(0);
    expect(fixture.stdout()).toContain(
      'test-harness: started 2 redis-server processes, 0 left running (killed 1 that were still running at the end)',
    );
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(runDir)).toBe(false);
  });
});

describe('after the run ended', () => {
  /** redis-server children of this worker process. */
  const childServers = (): number[] => {
    try {
      return execFileSync('pgrep', ['-P', String(process.pid), 'redis-server'], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
  };

  it('a lingering worker cannot start a server nobody would reap', async () => {
    const before = childServers();
    const runDir = process.env[RUN_DIR_ENV];
    process.env[RUN_DIR_ENV] = path.join(os.tmpdir(), 'deadbolt-harness-run-that-ended');
    try {
      await expect(startStandalone()).rejects.toThrow(/has the test run ended/);
    } finally {
      if (runDir === undefined) delete process.env[RUN_DIR_ENV];
      else process.env[RUN_DIR_ENV] = runDir;
    }
    await waitUntilGone(childServers().filter((pid) => !before.includes(pid)));
  });
});

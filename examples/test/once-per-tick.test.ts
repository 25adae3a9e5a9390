import { setTimeout as sleep } from 'node:timers/promises';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockClient } from '@deadbolt/core';
import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runOncePerTick } from '../src/OncePerTick.js';

// The cron recipe of src/OncePerTick.ts against the failure it is for: two instances fire for the
// same tick, the second 120 ms after the first finished (its clock, or its scheduler, is late).
// The recipe runs the tick once; the natural tryAcquire/run/release, shown as the contrast, runs it
// twice. Each instance is a client of its own on a connection of its own.
const JOB_MS = 100;
const LATE_MS = 120;

let server: RedisNode;
const opened: { client: LockClient; redis: Redis }[] = [];

beforeAll(async () => {
  server = await startStandalone();
});
afterEach(async () => {
  for (const { client, redis } of opened.splice(0)) {
    await client.close();
    await redis.quit();
  }
});
afterAll(() => server.stop());

function instance(): LockClient {
  const redis = new Redis(server.url);
  const client = new LockClient(ioredisExecutor(redis));
  opened.push({ client, redis });
  return client;
}

// The natural version: a lock per job, taken for the run and released after it.
async function runReleasingAfter(locks: LockClient, job: string, work: () => Promise<void>): Promise<boolean> {
  const held = await locks.lock(job).tryAcquire();
  if (held === null) return false;
  try {
    await work();
  } finally {
    await held.release();
  }
  return true;
}

// The job: records which instance ran it, and takes JOB_MS.
function jobRuns(): { runs: string[]; run: (who: string) => () => Promise<void> } {
  const runs: string[] = [];
  const run = (who: string) => async () => {
    runs.push(who);
    await sleep(JOB_MS);
  };
  return { runs, run };
}

describe('a cron job that must not run twice, one instance firing 120 ms after the other finished', () => {
  let n = 0;
  const job = () => `report-${++n}`;
  const scheduledAt = new Date('2026-11-28T10:00:00Z');

  it('one key per tick, not released: the tick runs once', async () => {
    const [a, b] = [instance(), instance()];
    const tick = { job: job(), scheduledAt, leaseMs: 60_000 };
    const { runs, run } = jobRuns();
    expect(await runOncePerTick(a, tick, run('a'))).toBe(true);
    await sleep(LATE_MS);
    expect(await runOncePerTick(b, tick, run('b'))).toBe(false);
    expect(runs).toEqual(['a']);
    // The tick's key stays, with what is left of its lease.
    expect(await a.lock(`${tick.job}:2026-11-28T10:00`).isLocked()).toBe(true);
  });

  it('contrast: tryAcquire, run, release runs the tick twice', async () => {
    const [a, b] = [instance(), instance()];
    const name = job();
    const { runs, run } = jobRuns();
    expect(await runReleasingAfter(a, name, run('a'))).toBe(true);
    await sleep(LATE_MS);
    expect(await runReleasingAfter(b, name, run('b'))).toBe(true);
    expect(runs).toEqual(['a', 'b']);
  });

  it('both instances at once: one runs the tick; the next tick, a key of its own, runs too', async () => {
    const [a, b] = [instance(), instance()];
    const tick = { job: job(), scheduledAt, leaseMs: 60_000 };
    const { runs, run } = jobRuns();
    const ran = await Promise.all([runOncePerTick(a, tick, run('a')), runOncePerTick(b, tick, run('b'))]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    const next = { ...tick, scheduledAt: new Date('2026-11-28T10:01:00Z') };
    expect(await runOncePerTick(b, next, run('b'))).toBe(true);
    expect(runs).toHaveLength(2);
  });

  it('the key ends with its lease: the job has the lease to finish, its signal aborts when it runs out', async () => {
    const a = instance();
    const tick = { job: job(), scheduledAt, leaseMs: 200 };
    let aborted = false;
    await runOncePerTick(a, tick, async (signal) => {
      await sleep(400);
      aborted = signal.aborted;
    });
    expect(aborted).toBe(true);
    expect(await a.lock(`${tick.job}:2026-11-28T10:00`).isLocked()).toBe(false);
  });
});

import { LockClient, type LockBase } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '@deadbolt/conformance/connect';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { percentile, round } from '../stats.js';

// The steady read load a writer waits under: each reader reads for READ_MS, pauses for PAUSE_MS.
const LOAD_READERS = 8;
const READ_MS = 5;
const PAUSE_MS = 15;
// The writer asks every WRITER_EVERY_MS, and gives up after WRITER_WAIT_MS.
const WRITER_EVERY_MS = 50;
const WRITER_WAIT_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Scenario 4: the read-write lock, on one client per side.
 * - Read throughput: read lock acquire + release cycles per second (nothing done inside), one
 *   reader at a time against 64 concurrent readers; the write lock with 64 concurrent tasks
 *   shows what the same tasks do when they must take turns.
 * - A writer's wait: the time from asking for the write lock to holding it, with no readers and
 *   under a steady load of 8 readers that each read 5 ms and pause 15 ms. Readers are let in
 *   while a writer waits (Redisson's rule), so the writer gets in at a moment when no one reads.
 */
export async function readWrite(spec: ConnectionSpec, smoke: boolean) {
  const size = smoke ? { cycles: 256, loadMs: 1_000 } : { cycles: 6_400, loadMs: 10_000 };
  const connections = await Promise.all([connectExecutor(spec), connectExecutor(spec)]);
  const [readerClient, writerClient] = connections.map(({ executor }) => new LockClient(executor)) as [LockClient, LockClient];
  try {
    const reads = new ReadWriteLock(readerClient, 'bench:rwlock').readLock();
    const write = new ReadWriteLock(writerClient, 'bench:rwlock').writeLock();
    await cyclesPerSecond(reads, 64, 640);
    const serial = await cyclesPerSecond(reads, 1, size.cycles / 4);
    const concurrent = await cyclesPerSecond(reads, 64, size.cycles);
    const exclusive = await cyclesPerSecond(new ReadWriteLock(readerClient, 'bench:rwlock:exclusive').writeLock(), 64, size.cycles / 4);
    const idle = await writerWaits(write, size.loadMs / 10);
    let loadReads = 0;
    let reading = true;
    const load = Array.from({ length: LOAD_READERS }, async (_, i) => {
      await sleep(((READ_MS + PAUSE_MS) * i) / LOAD_READERS);
      while (reading) {
        const held = await reads.acquire();
        await sleep(READ_MS);
        await held.release();
        loadReads++;
        await sleep(PAUSE_MS);
      }
    });
    const loadStarted = performance.now();
    const loaded = await writerWaits(write, size.loadMs);
    const loadElapsed = performance.now() - loadStarted;
    reading = false;
    await Promise.all(load);
    return {
      readsPerSecond1: round(serial),
      readsPerSecond64: round(concurrent),
      readScaling64To1: round(concurrent / serial),
      exclusivePerSecond64: round(exclusive),
      writerWaitIdleP50Ms: round(percentile(idle.waits, 50)),
      writerWaitLoadedP50Ms: round(percentile(loaded.waits, 50)),
      writerWaitLoadedP99Ms: round(percentile(loaded.waits, 99)),
      writerWaitLoadedMaxMs: round(Math.max(...loaded.waits)),
      writerTimeouts: loaded.timeouts,
      writerAttempts: loaded.waits.length + loaded.timeouts,
      readsPerSecondUnderLoad: round((loadReads / loadElapsed) * 1000),
    };
  } finally {
    await Promise.all([readerClient.close(), writerClient.close()]);
    await Promise.all(connections.map(({ close }) => close()));
  }
}

/** Acquire + release cycles per second of `tasks` concurrent tasks sharing `lock`. */
async function cyclesPerSecond(lock: LockBase, tasks: number, cycles: number): Promise<number> {
  const perTask = Math.ceil(cycles / tasks);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: tasks }, async () => {
      for (let i = 0; i < perTask; i++) await (await lock.acquire()).release();
    }),
  );
  return ((perTask * tasks) / (performance.now() - started)) * 1000;
}

/** A writer asking every WRITER_EVERY_MS for `duration` ms: its waits, and how often it gave up. */
async function writerWaits(write: LockBase, duration: number) {
  const waits: number[] = [];
  let timeouts = 0;
  const until = performance.now() + duration;
  while (performance.now() < until) {
    const asked = performance.now();
    const held = await write.tryAcquire({ waitTime: WRITER_WAIT_MS });
    if (held) {
      waits.push(performance.now() - asked);
      await held.release();
    } else {
      timeouts++;
    }
    await sleep(WRITER_EVERY_MS);
  }
  return { waits, timeouts };
}

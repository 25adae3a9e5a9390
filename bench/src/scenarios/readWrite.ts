import { READ_WRITE_LOCK } from '@deadbolt/conformance/kinds';
import type { LockBase, LockClient } from '@deadbolt/core';
import { connectDeadbolt } from '../contenders/deadbolt.js';
import type { Contender, Mutex } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { floorMutex, inTasks, sleep } from '../measure.js';
import type { ScenarioSpec } from '../report.js';
import { percentile } from '../stats.js';

// The steady read load a writer waits under: each reader reads for READ_MS, pauses for PAUSE_MS.
const LOAD_READERS = 8;
const READ_MS = 5;
const PAUSE_MS = 15;
// The writer asks every WRITER_EVERY_MS, and gives up after WRITER_WAIT_MS.
const WRITER_EVERY_MS = 50;
const WRITER_WAIT_MS = 2_000;

/** Scenario 5's table. */
export const READ_WRITE: ScenarioSpec = {
  id: 'read-write',
  title: '5. Read-write lock',
  measures:
    "read lock acquire + release cycles per second for 1 and for 64 concurrent readers (and the write lock with the same 64 tasks, which must take turns); a writer's wait for the write lock, idle and under a steady load of 8 readers that each read 5 ms and pause 15 ms.",
  floor:
    "two trivial EVALSHA round trips per cycle on the reader's client, by 1 task and by 64 concurrent tasks (as scenarios 1 and 2); the writer's wait is compared with its own idle wait.",
  columns: [
    { key: 'readsPerSecond1', label: 'reads/s ×1' },
    { key: 'readsPerSecond64', label: 'reads/s ×64' },
    { key: 'readsRatioToFloor1', label: 'ratio to floor ×1' },
    { key: 'readsRatioToFloor64', label: 'ratio to floor ×64' },
    { key: 'readScaling64To1', label: 'scaling ×64 ÷ ×1' },
    { key: 'exclusivePerSecond64', label: 'writes/s ×64' },
    { key: 'writerWaitIdleP50Ms', label: 'writer wait idle p50 ms' },
    { key: 'writerWaitLoadedP50Ms', label: 'writer wait loaded p50 ms' },
    { key: 'writerWaitLoadedP99Ms', label: 'loaded p99 ms' },
    { key: 'writerWaitLoadedMaxMs', label: 'loaded max ms' },
    { key: 'writerTimeouts', label: 'writer timeouts' },
    { key: 'writerAttempts', label: 'writer attempts' },
    { key: 'readsPerSecondUnderLoad', label: 'reads/s under load' },
  ],
  feature: 'readWrite',
};

/**
 * Scenario 5: Deadbolt's read-write lock, on one client per side.
 * - Read throughput: read lock acquire + release cycles per second (nothing done inside), one
 *   reader at a time against 64 concurrent readers; the write lock with 64 concurrent tasks
 *   shows what the same tasks do when they must take turns.
 * - A writer's wait: the time from asking for the write lock to holding it, with no readers and
 *   under a steady load of 8 readers that each read 5 ms and pause 15 ms. Readers are let in
 *   while a writer waits (Redisson's rule), so the writer gets in at a moment when no one reads.
 */
export async function readWrite(contender: Contender, address: Address, size: { cycles: number; loadMs: number }) {
  const sessions = await Promise.all([
    connectDeadbolt(contender.driver, address),
    connectDeadbolt(contender.driver, address),
  ]);
  const [readerClient, writerClient] = sessions.map((session) => session.client) as [LockClient, LockClient];
  try {
    const reads = READ_WRITE_LOCK.create([readerClient], 'bench:rwlock', 'read');
    const write = READ_WRITE_LOCK.create([writerClient], 'bench:rwlock', 'write');
    await cyclesPerSecond(reads, 64, 640);
    const serial = await cyclesPerSecond(reads, 1, size.cycles / 4);
    const concurrent = await cyclesPerSecond(reads, 64, size.cycles);
    const floor = floorMutex(sessions[0].connection);
    const floor1 = await cyclesPerSecond(floor, 1, size.cycles / 4);
    const floor64 = await cyclesPerSecond(floor, 64, size.cycles);
    const exclusive = await cyclesPerSecond(
      READ_WRITE_LOCK.create([readerClient], 'bench:rwlock:exclusive', 'write'),
      64,
      size.cycles / 4,
    );
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
      readsPerSecond1: serial,
      readsPerSecond64: concurrent,
      readsRatioToFloor1: serial / floor1,
      readsRatioToFloor64: concurrent / floor64,
      readScaling64To1: concurrent / serial,
      exclusivePerSecond64: exclusive,
      writerWaitIdleP50Ms: percentile(idle.waits, 50),
      writerWaitLoadedP50Ms: percentile(loaded.waits, 50),
      writerWaitLoadedP99Ms: percentile(loaded.waits, 99),
      writerWaitLoadedMaxMs: Math.max(...loaded.waits),
      writerTimeouts: loaded.timeouts,
      writerAttempts: loaded.waits.length + loaded.timeouts,
      readsPerSecondUnderLoad: (loadReads / loadElapsed) * 1000,
    };
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/** Acquire + release cycles per second of `tasks` concurrent tasks sharing `lock`. */
async function cyclesPerSecond(lock: Mutex, tasks: number, cycles: number): Promise<number> {
  const perTask = Math.ceil(cycles / tasks);
  const started = performance.now();
  await inTasks(tasks, perTask, async () => (await lock.acquire()).release());
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

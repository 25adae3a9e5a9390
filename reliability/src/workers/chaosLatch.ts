// A chaos latch worker: waiter tasks await one count-down latch, and each `count` line on stdin
// counts it down once. Every countdown call is counted at the store (a host no fault touches)
// before it is sent, and a waiter the latch lets through reads that count right after: fewer
// than the latch's count means it opened early (a countdown of unknown outcome is settled by the
// count, never sent twice). Prints every step (see ChaosLatchEvent); the
// waiters start on `go`, the first line on stdin; it ends once they are through and `end` came
// (every countdown asked for, also after an early opening).
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildSession } from '@deadbolt/conformance/connect';
import { RedisUnavailableError } from '@deadbolt/core';
import { CountDownLatch } from '@deadbolt/countdown-latch';
import { RespConnection } from '@deadbolt/test-harness';
import { CHAOS_LATCH_JOB_VARIABLE, type ChaosLatchEvent, type ChaosLatchJob } from '../chaos/chaosPermitEvents.js';
import { monotonicMicros } from '../clock.js';

// Long enough for a chaos run; a wait that runs out is a failure (the latch never opened).
const WAIT_TIME = 60_000;
// The pause before a call that failed with Redis unreachable is made again.
const RETRY_PAUSE_MS = 100;

const emit = (event: ChaosLatchEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);

process.on('unhandledRejection', (reason) => fail(`unhandled rejection: ${describe(reason)}`));

const { job, client, close } = await startChildSession<ChaosLatchJob>(CHAOS_LATCH_JOB_VARIABLE);
const latch = new CountDownLatch(client, job.name);
await latch.trySetCount(job.count);
const store = await RespConnection.connect(job.store, { timeoutMs: 10_000 });
const lines = createInterface({ input: process.stdin });
emit({ event: 'ready' });
await once(lines, 'line');
// Countdowns one at a time, in the order asked.
let counting = Promise.resolve();
const ended = new Promise<void>((resolve) =>
  lines.on('line', (line) => {
    if (line === 'count') counting = counting.then(countDown).catch((error: unknown) => fail(describe(error)));
    if (line === 'end') resolve();
  }),
);

await Promise.all(Array.from({ length: job.waiters }, (_, waiter) => awaitOpen(waiter))).catch((error: unknown) =>
  fail(describe(error)),
);
await ended;
lines.close();
await counting;
store.close();
await close();
emit({ event: 'done' });

/** Waits until the latch opens (again after Redis was unreachable), then reads the countdowns sent. */
async function awaitOpen(waiter: number): Promise<void> {
  if (!(await untilAnswered('await', () => latch.await({ waitTime: WAIT_TIME }))))
    throw new Error(`waiter ${waiter}: the latch never opened`);
  const at = monotonicMicros();
  emit({ event: 'opened', waiter, at, sent: Number(await store.command('GET', job.sentKey)) });
}

/**
 * Counts down once, counted at the store before the first call. A call of unknown outcome (Redis
 * unreachable) is settled by the count read once Redis answers (past the call's deadline, after
 * which no copy of it runs): one less, it ran; the same, it is called again. Countdowns come one
 * at a time, so nothing else moves the count meanwhile; anything else fails the worker.
 */
async function countDown(): Promise<void> {
  const before = await untilAnswered('getCount', () => latch.getCount());
  await store.command('INCR', job.sentKey);
  for (let calls = 1; ; calls++) {
    try {
      await latch.countDown();
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      emit({ event: 'retried', stage: 'countDown', error: error.name, at: monotonicMicros() });
      const after = await untilAnswered('getCount', () => latch.getCount());
      if (after === before) continue;
      if (after !== before - 1)
        throw new Error(`a countdown from ${before} left the count at ${after}`, { cause: error });
    }
    emit({ event: 'counted', at: monotonicMicros(), calls });
    return;
  }
}

/** Calls `call` until Redis answers it, a pause between tries. */
async function untilAnswered<T>(stage: 'await' | 'getCount', call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      emit({ event: 'retried', stage, error: error.name, at: monotonicMicros() });
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

function fail(message: string): never {
  emit({ event: 'failed', message });
  process.exit(1);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

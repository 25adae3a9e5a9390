// A chaos latch worker: waiter tasks await one count-down latch, and each `count` line on stdin
// counts it down once. Every countdown call is counted at the store (a host no fault touches)
// before it is sent, and a waiter the latch lets through reads that count right after: fewer
// than the latch's count means it opened early. Prints every step (see ChaosLatchEvent); the
// waiters start on `go`, the first line on stdin.
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
lines.on('line', (line) => {
  if (line === 'count') counting = counting.then(countDown).catch((error: unknown) => fail(describe(error)));
});

await Promise.all(Array.from({ length: job.waiters }, (_, waiter) => awaitOpen(waiter))).catch((error: unknown) =>
  fail(describe(error)),
);
lines.close();
await counting;
store.close();
await close();
emit({ event: 'done' });

/** Waits until the latch opens (again after Redis was unreachable), then reads the countdowns sent. */
async function awaitOpen(waiter: number): Promise<void> {
  for (;;) {
    try {
      if (!(await latch.await({ waitTime: WAIT_TIME }))) throw new Error(`waiter ${waiter}: the latch never opened`);
      break;
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      emit({ event: 'retried', stage: 'await', error: error.name, at: monotonicMicros() });
      await sleep(RETRY_PAUSE_MS);
    }
  }
  const at = monotonicMicros();
  emit({ event: 'opened', waiter, at, sent: Number(await store.command('GET', job.sentKey)) });
}

/** Counts down once: calls again (counted again first) after a call of unknown outcome. */
async function countDown(): Promise<void> {
  for (let calls = 1; ; calls++) {
    await store.command('INCR', job.sentKey);
    try {
      await latch.countDown();
      emit({ event: 'counted', at: monotonicMicros(), calls });
      return;
    } catch (error) {
      if (!(error instanceof RedisUnavailableError)) throw error;
      emit({ event: 'retried', stage: 'countDown', error: error.name, at: monotonicMicros() });
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

// A chaos permit worker: tasks take one permit of a semaphore each, over and over, and count
// themselves at the store (a host no fault touches) while they hold it: INCR once granted, DECR
// once their work ended or a leased permit's holder was told it is lost. The store's count at
// each grant is what the test checks against the permits: more holders than permits at once
// would be a permit invented. Prints every step (see ChaosPermitEvent); starts on `go` from stdin.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildSession } from '@deadbolt/conformance/connect';
import { LockError, LockLostError, RedisUnavailableError, ReplicaSyncError } from '@deadbolt/core';
import { RespConnection } from '@deadbolt/test-harness';
import { CHAOS_PERMIT_JOB_VARIABLE, type ChaosPermitEvent, type ChaosPermitJob } from '../chaos/chaosPermitEvents.js';
import { monotonicMicros } from '../clock.js';
import { permitKindById, type PermitHolding, type PermitSemaphore } from '../semaphore/permitKinds.js';

// Long enough for any fault of a chaos run to pass; a wait that runs out is tried again.
const WAIT_TIME = 20_000;
// A task still retrying one call after this long is stuck, not unlucky.
const MAX_RETRY_MS = 60_000;
// The pause before the n-th retry is n times this, at most RETRY_PAUSE_MAX_MS.
const RETRY_PAUSE_MS = 20;
const RETRY_PAUSE_MAX_MS = 250;

const emit = (event: ChaosPermitEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);

process.on('unhandledRejection', (reason) => fail(`unhandled rejection: ${describe(reason)}`));

const { job, client, close } = await startChildSession<ChaosPermitJob>(CHAOS_PERMIT_JOB_VARIABLE);
const kind = permitKindById(job.kind);
const semaphore = kind.create(client, job.name);
await semaphore.trySetPermits(job.permits);
const lines = createInterface({ input: process.stdin });
emit({ event: 'ready' });
await once(lines, 'line');
lines.close();

await Promise.all(Array.from({ length: job.tasks }, (_, task) => runTask(semaphore, task))).catch((error: unknown) =>
  fail(describe(error)),
);
await close();
emit({ event: 'done' });

/** Takes, holds and gives back one permit `holdsPerTask` times, counted at the store meanwhile. */
async function runTask(semaphore: PermitSemaphore, task: number): Promise<void> {
  const store = await RespConnection.connect(job.store, { timeoutMs: 10_000 });
  try {
    for (let iteration = 0; iteration < job.holdsPerTask; iteration++) {
      const hold = `${process.pid}.${task}.${iteration}`;
      const holding = await retried('acquire', () => semaphore.acquire(1, { waitTime: WAIT_TIME }));
      const at = monotonicMicros();
      const holders = Number(await store.command('INCR', job.holdersKey));
      emit({ event: 'acquired', hold, at, holders });
      const told = await workUntilTold(holding, hold);
      await store.command('DECR', job.holdersKey);
      emit({ event: 'worked', hold, end: monotonicMicros(), told });
      emit({ event: 'released', hold, outcome: await releaseOutcome(holding), at: monotonicMicros() });
    }
  } finally {
    store.close();
  }
}

/** Works `workMs`, or less when the holder is told its permit is lost; resolves whether it was. */
async function workUntilTold(holding: PermitHolding, hold: string): Promise<boolean> {
  const { signal } = holding;
  if (signal === undefined) {
    await sleep(job.workMs);
    return false;
  }
  signal.addEventListener('abort', () => emit({ event: 'told', hold, at: monotonicMicros() }), { once: true });
  await sleep(job.workMs, undefined, { signal }).catch(() => undefined);
  return signal.aborted;
}

/**
 * Gives the permit back. A Semaphore's release is the same request each try, which gives back
 * only what is still held, so it is sent again until it comes back (`LockLostError`: a try before
 * ran, its reply lost). A leased permit's is sent once: `lapsed` when its lease had ended,
 * `unknown` when Redis was unreachable or the replicas did not confirm it (`ReplicaSyncError`:
 * released on a master that a failover may forget; its lease ends it then).
 */
async function releaseOutcome(holding: PermitHolding): Promise<'released' | 'lapsed' | 'unknown'> {
  if (kind.leased)
    return holding.release().then(
      (released) => (released ? 'released' : 'lapsed'),
      (error: unknown) => {
        if (error instanceof RedisUnavailableError || error instanceof ReplicaSyncError) return 'unknown';
        throw error;
      },
    );
  return retried('release', () =>
    holding.release().then(
      () => 'released' as const,
      (error: unknown) => {
        if (error instanceof LockLostError) return 'unknown' as const;
        throw error;
      },
    ),
  );
}

/** Runs `call`, retrying typed lock errors (Redis unreachable, a wait that ran out); anything else is fatal. */
async function retried<T>(stage: 'acquire' | 'release', call: () => Promise<T>): Promise<T> {
  const first = monotonicMicros();
  for (let tries = 1; ; tries++) {
    const started = monotonicMicros();
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof LockError)) throw error;
      emit({ event: 'retried', stage, error: error.name, started, at: monotonicMicros() });
      if (monotonicMicros() - first > MAX_RETRY_MS * 1000) throw error;
      await sleep(Math.min(tries * RETRY_PAUSE_MS, RETRY_PAUSE_MAX_MS));
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

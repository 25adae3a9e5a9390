// A hammer worker: contends for the locks of its job with several tasks each, and inside every
// hold reads the guarded counter, works a moment (the job's workMs: a freeze landing there turns
// an overlap into a lost update unless the store is fenced), and writes it back plus one
// (exclusive roles), so that
// two holders at once show up as overlapping intervals and as a lost update. Prints every hold
// as it starts and ends (see HammerEvent); starts on `go` from stdin.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { connectExecutor, startChildSession } from '@deadbolt/conformance/connect';
import { LockClient, LockError, LockLostError, LockNotHeldError, RedisUnavailableError } from '@deadbolt/core';
import { LockGroupError } from '@deadbolt/multilock';
import { monotonicMicros } from '../clock.js';
import {
  holdId,
  HAMMER_JOB_VARIABLE,
  type HammerEvent,
  type HammerJob,
  type ReleaseOutcome,
} from '../hammer/hammerEvents.js';
import type { LockHold } from '@deadbolt/conformance/kinds';
import { kindById } from '../kinds.js';
import { resourceKeys, ResourceStore } from '../store/ResourceStore.js';

// A task still retrying one call after this long is stuck, not unlucky. A bound in time, not in
// tries: every fault heals within seconds, but a driver's calls may time out for a while after
// one (GLIDE's stayed unanswered at commandTimeout for 15 s after a cut once in CI, on a loaded
// machine, spending 25 tries before the next fault was due).
const MAX_RETRY_MS = 60_000;
// Long enough for any fault the suite injects to pass; a wait that runs out is retried.
const WAIT_TIME = 30_000;
// The pause before the n-th retry is n times this, at most RETRY_PAUSE_MAX_MS: a driver that
// fails calls at once while Redis is away must not hammer it through a partition.
const RETRY_PAUSE_MS = 20;
const RETRY_PAUSE_MAX_MS = 250;

const emit = (event: HammerEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);

process.on('unhandledRejection', (reason) => fail(`unhandled rejection: ${describe(reason)}`));

const { job, client, close } = await startChildSession<HammerJob>(HAMMER_JOB_VARIABLE);
const others = await Promise.all(
  job.otherSpecs.map(async (spec) => {
    const connected = await connectExecutor(spec);
    return { client: new LockClient(connected.executor, job.clientOptions), connected };
  }),
);
const clients = [client, ...others.map((other) => other.client)];
const lines = createInterface({ input: process.stdin });
emit({ event: 'ready' });
await once(lines, 'line');
lines.close();

await Promise.all(
  job.subjects.flatMap((subject, index) => {
    const kind = kindById(subject.kind);
    const exclusive = kind.roles.find((role) => role.name === subject.role)?.exclusive ?? true;
    const lock = kind.create(clients, subject.lockName, subject.role);
    const keys = resourceKeys(subject.lockName);
    return Array.from({ length: subject.tasks }, async (_, task) => {
      const store = await ResourceStore.connect(job.store);
      try {
        for (let iteration = 0; iteration < subject.iterations; iteration++) {
          const hold = holdId(process.pid, index, task, iteration);
          const requested = monotonicMicros();
          const held = await retried('acquire', () => lock.acquire({ waitTime: WAIT_TIME }));
          emit({ event: 'acquired', subject: index, hold, requested, at: monotonicMicros() });
          reportAbort(held, hold);
          const token = kind.token?.(held);
          const read = await store.read(keys, token);
          let wrote = false;
          if (read.accepted && exclusive) {
            await sleep(job.workMs);
            wrote = await store.write(keys, read.value + 1, hold, token);
          }
          emit({
            event: 'worked',
            hold,
            end: monotonicMicros(),
            wrote,
            rejected: !read.accepted || (exclusive && !wrote),
            lost: held.signal.aborted,
          });
          const release = await releaseOutcome(held);
          emit({ event: 'released', hold, release, at: monotonicMicros() });
        }
      } finally {
        store.close();
      }
    });
  }),
).catch((error: unknown) => fail(describe(error)));

for (const other of others) {
  await other.client.close();
  await other.connected.close();
}
await close();
emit({ event: 'done' });

/**
 * Runs `call`, retrying typed lock errors (Redis unreachable, a wait that ran out); anything else is
 * fatal. A group's failed release is not retried whole: the group counts as released once called.
 */
async function retried<T>(
  stage: 'acquire' | 'release',
  call: () => Promise<T>,
  onUnknown: () => void = () => undefined,
): Promise<T> {
  const firstTry = monotonicMicros();
  for (let tries = 1; ; tries++) {
    const started = monotonicMicros();
    try {
      return await call();
    } catch (error) {
      if (
        !(error instanceof LockError) ||
        error instanceof LockNotHeldError ||
        error instanceof LockLostError ||
        error instanceof LockGroupError ||
        monotonicMicros() - firstTry >= MAX_RETRY_MS * 1000
      )
        throw error;
      if (error instanceof RedisUnavailableError) onUnknown();
      emit({ event: 'retried', stage, error: error.name, started, at: monotonicMicros() });
      await sleep(Math.min(tries * RETRY_PAUSE_MS, RETRY_PAUSE_MAX_MS));
    }
  }
}

/**
 * How a release went; a lock group's members that failed to release (Redis away) are released
 * again one by one. A try that found the lock gone after a try whose outcome was unknown is
 * `unknown`: the first may have released it.
 */
async function releaseOutcome(held: LockHold, triedUnknown = false): Promise<ReleaseOutcome> {
  let unknown = triedUnknown;
  try {
    await retried(
      'release',
      () => held.release(),
      () => (unknown = true),
    );
    return 'released';
  } catch (error) {
    // Lost before or at the release (a retry after an unknown outcome finds the hold gone), or released twice.
    if (error instanceof LockLostError || error instanceof LockNotHeldError) return unknown ? 'unknown' : 'not-held';
    if (!(error instanceof LockGroupError)) throw error;
    emit({ event: 'retried', stage: 'release', error: error.name, started: monotonicMicros(), at: monotonicMicros() });
    const members = await Promise.all(
      error.failures.map(({ member, error: cause }) => releaseOutcome(member, cause instanceof RedisUnavailableError)),
    );
    if (members.every((outcome) => outcome === 'released')) return 'released';
    return members.includes('not-held') ? 'not-held' : 'unknown';
  }
}

/** Prints when the hold's signal aborts (at once if it already has). */
function reportAbort(held: LockHold, hold: string): void {
  const report = () => emit({ event: 'aborted', hold, at: monotonicMicros() });
  if (held.signal.aborted) report();
  else held.signal.addEventListener('abort', report, { once: true });
}

function fail(message: string): never {
  emit({ event: 'failed', message });
  process.exit(1);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

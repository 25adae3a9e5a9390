// A permit-hammer worker: several tasks take 1..maxPermits permits of one semaphore, hold them a
// moment and give them back, over and over. Prints every step as it happens (see PermitEvent), so
// the test process can rebuild every grant's interval and account for every permit, also after
// this process is killed mid-way. Starts on `go` from stdin; on `freeze` it stops where it is
// (see PermitEvent 'frozen') so that it can be killed holding permits with nothing in flight.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { startChildSession } from '@deadbolt/conformance/connect';
import { LockError, LockLostError, RedisUnavailableError } from '@deadbolt/core';
import { monotonicMicros } from '../clock.js';
import { PERMIT_JOB_VARIABLE, type PermitEvent, type PermitJob } from './permitEvents.js';
import { permitKindById, type PermitHolding, type PermitSemaphore } from './permitKinds.js';

// Long enough for any fault the suite injects to pass; a wait that runs out is tried again.
const WAIT_TIME = 20_000;
// A task that needs more attempts than this per grant is stuck, not unlucky.
const MAX_ATTEMPTS_PER_HOLD = 10;
// How long a worker may take to end by itself once its client is closed.
const LINGER_MS = 5_000;
// How long past its fixed lease a grant that outlives it waits to be told before it gives up.
const TOLD_WAIT_MS = 5_000;
// How long such a grant holds on once told, so that its release is surely sent after the lease's
// latest end (the acquire's reply plus the lease: the lease was counted from before it was sent).
const PAST_LEASE_MS = 20;
// After an attempt of unknown outcome (Redis unreachable), the task pauses this long times the
// attempts that failed so in a row, at most MISSED_PAUSE_MAX_MS: a driver that fails calls at
// once while Redis is away must not spend the task's attempts within one partition.
const MISSED_PAUSE_MS = 50;
const MISSED_PAUSE_MAX_MS = 500;
// How often a Semaphore's release of unknown outcome is sent again (the same request: it gives
// back only what is still held), a pause of RELEASE_PAUSE_MS between tries.
const RELEASE_TRIES = 20;
const RELEASE_PAUSE_MS = 100;

const emit = (event: PermitEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);

process.on('unhandledRejection', (reason) => fail(`unhandled rejection: ${describe(reason)}`));

const { job, client, close } = await startChildSession<PermitJob>(PERMIT_JOB_VARIABLE);
const kind = permitKindById(job.kind);
const { leased } = kind;
const semaphore = kind.create(client, job.name);
const lines = createInterface({ input: process.stdin });
// Aborted on `freeze`: waits end, and no task starts another request.
const freezing = new AbortController();
// Tasks parked by a freeze or done with their grants.
let parked = 0;
emit({ event: 'ready' });
await once(lines, 'line');
lines.on('line', (line) => {
  if (line !== 'freeze') return;
  freezing.abort(new Error('frozen'));
  // Every task may be done already.
  if (parked === job.tasks) emit({ event: 'frozen' });
});

await Promise.all(Array.from({ length: job.tasks }, (_, task) => runTask(semaphore, task))).catch((error: unknown) =>
  fail(describe(error)),
);
lines.close();
await close();
emit({ event: 'done' });
// With the client closed, nothing should keep this process alive. One still here after LINGER_MS
// says what does (see PermitEvent 'lingered') and exits, so that the run ends.
setTimeout(() => {
  emit({ event: 'lingered', resources: process.getActiveResourcesInfo() });
  process.exit(0);
}, LINGER_MS).unref();

/** Takes and gives back `holdsPerTask` grants, a new attempt id for every try. */
async function runTask(semaphore: PermitSemaphore, task: number): Promise<void> {
  let granted = 0;
  let missedInARow = 0;
  for (let attempt = 0; granted < job.holdsPerTask; attempt++) {
    if (attempt >= job.holdsPerTask * MAX_ATTEMPTS_PER_HOLD)
      throw new Error(`task ${task} made ${attempt} attempts for ${granted} grants`);
    const hold = `${process.pid}.${task}.${attempt}`;
    const permits = 1 + ((task + attempt) % job.maxPermits);
    const lease = fixedLeaseOf(task + attempt);
    if (freezing.signal.aborted) await park();
    emit({
      event: 'asking',
      hold,
      permits,
      at: monotonicMicros(),
      ...(lease === undefined ? {} : { leaseMs: lease.leaseMs }),
    });
    const holding = await attemptAcquire(semaphore, hold, permits, lease?.leaseMs);
    if (holding === 'unknown') await sleep(Math.min(++missedInARow * MISSED_PAUSE_MS, MISSED_PAUSE_MAX_MS));
    if (holding === null || holding === 'unknown') continue;
    missedInARow = 0;
    emit({ event: 'acquired', hold, at: monotonicMicros() });
    holding.signal?.addEventListener(
      'abort',
      () => emit({ event: 'told', hold, at: monotonicMicros(), reason: describe(holding.signal?.reason) }),
      { once: true },
    );
    await (lease?.outlive === true ? toldOrGiveUp(holding, lease.leaseMs) : sleep(job.workMs));
    if (freezing.signal.aborted) await park();
    emit({ event: 'releasing', hold, at: monotonicMicros() });
    emit({ event: 'released', hold, ...(await releaseOutcome(holding)) });
    granted++;
  }
  stopped();
}

/**
 * Never resolves: a frozen task stays where it is, holding what it holds, until the process is
 * killed. The last task to park reports the worker frozen.
 */
function park(): Promise<never> {
  stopped();
  return new Promise<never>(() => undefined);
}

// A task parked or done with its grants; once all are, a frozen worker says so.
function stopped(): void {
  if (++parked === job.tasks && freezing.signal.aborted) emit({ event: 'frozen' });
}

/**
 * The fixed lease of the grant at `turn` (task + attempt), if it takes one: every
 * `fixedLease.every`-th turn, and every other one of those outlives its lease.
 */
function fixedLeaseOf(turn: number): { readonly leaseMs: number; readonly outlive: boolean } | undefined {
  const plan = job.fixedLease;
  if (plan === undefined || turn % plan.every !== 0) return undefined;
  return { leaseMs: plan.leaseMs, outlive: (turn / plan.every) % 2 === 1 };
}

/**
 * Holds on until the holder is told its lease ended, then PAST_LEASE_MS more; or gives up
 * TOLD_WAIT_MS past the lease (the test then finds it was never told).
 */
async function toldOrGiveUp(holding: PermitHolding, leaseMs: number): Promise<void> {
  const { signal } = holding;
  if (signal !== undefined && !signal.aborted) {
    const giveUp = new AbortController();
    const told = once(signal, 'abort', { signal: giveUp.signal }).catch(() => undefined);
    await Promise.race([
      told,
      sleep(leaseMs + TOLD_WAIT_MS, undefined, { signal: giveUp.signal }).catch(() => undefined),
    ]);
    giveUp.abort();
  }
  await sleep(PAST_LEASE_MS);
}

/**
 * The permits, or `null` after a typed error or a freeze (reported as `missed`; an aborted wait
 * took nothing), `unknown` when Redis was unreachable; anything else is fatal.
 */
async function attemptAcquire(
  semaphore: PermitSemaphore,
  hold: string,
  permits: number,
  leaseTime: number | undefined,
): Promise<PermitHolding | null | 'unknown'> {
  try {
    return await semaphore.acquire(permits, {
      waitTime: WAIT_TIME,
      signal: freezing.signal,
      ...(leaseTime === undefined ? {} : { leaseTime }),
    });
  } catch (error) {
    if (freezing.signal.aborted && error === freezing.signal.reason) {
      emit({ event: 'missed', hold, error: 'frozen', unknown: false });
      return null;
    }
    if (!(error instanceof LockError)) throw error;
    const unknown = error instanceof RedisUnavailableError;
    emit({ event: 'missed', hold, error: error.name, unknown });
    return unknown ? 'unknown' : null;
  }
}

/**
 * Gives the permits back: `unknown` when Redis was unreachable (it may or may not have them
 * back); for a leased kind, `lapsed` when some were no longer held. A leased kind's release is
 * sent once (sent again after an unknown outcome, it could not tell a lapse from its own first
 * try). A Semaphore's is sent again until it comes back, as an application would: the same
 * request, which gives back only what is still held, so its outcome is known in the end.
 */
async function releaseOutcome(
  holding: PermitHolding,
): Promise<{ unknown: boolean; lapsed?: boolean; notHeld?: boolean }> {
  for (let tries = 1; ; tries++) {
    try {
      const released = await holding.release();
      return leased ? { unknown: false, lapsed: !released } : { unknown: false };
    } catch (error) {
      // A Semaphore's release that found its mark gone: a try of it may have given the permits
      // back before (its reply lost) and this one come after that try's record ended. Whether
      // any permit went missing is the ledger's to tell.
      if (!leased && error instanceof LockLostError) return { unknown: true, notHeld: true };
      if (!(error instanceof RedisUnavailableError)) throw error;
      if (leased || tries >= RELEASE_TRIES) return { unknown: true };
      await sleep(RELEASE_PAUSE_MS);
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

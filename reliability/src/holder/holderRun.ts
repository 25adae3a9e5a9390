import { fileURLToPath } from 'node:url';
import type { Backend } from '@deadbolt/conformance';
import { exclusiveRole, type ConformantLock, type LockSubject } from '@deadbolt/conformance/kinds';
import type { HeldLock, LockClient } from '@deadbolt/core';
import type { RedisAddress } from '@deadbolt/test-harness';
import type { ReliabilityKind } from '../kinds.js';
import { WorkerProcess } from '../process/WorkerProcess.js';
import { HOLDER_JOB_VARIABLE, type HolderEvent, type HolderJob } from './holderEvents.js';

const SCRIPT = fileURLToPath(new URL('../workers/holder.ts', import.meta.url));

/** A holder worker that holds one lock per subject. */
export interface Holder {
  readonly worker: WorkerProcess<HolderEvent>;
  /** The lock names, in subject order. */
  readonly names: readonly string[];
}

/** Starts a holder worker with a lock of each subject, and resolves once it holds them all. */
export async function startHolder(options: {
  backend: Backend;
  store: RedisAddress;
  subjects: readonly LockSubject<ReliabilityKind>[];
  watchdogTimeout: number;
  uniqueName: (label: string) => string;
}): Promise<Holder> {
  const names = options.subjects.map((subject) => options.uniqueName(subject.label));
  const job: HolderJob = {
    spec: options.backend.spec,
    clientOptions: { watchdogTimeout: options.watchdogTimeout },
    store: { host: options.store.host, port: options.store.port },
    subjects: options.subjects.map(({ kind, role }, index) => ({
      kind: kind.id,
      role: role.name,
      lockName: names[index] ?? '',
    })),
  };
  const worker = WorkerProcess.start<HolderEvent>(SCRIPT, HOLDER_JOB_VARIABLE, job);
  await worker.next((event) => event.event === 'holding');
  return { worker, names };
}

/** A waiter in the test process for one held lock, in the kind's exclusive role. */
export interface Waiter {
  readonly subject: LockSubject<ReliabilityKind>;
  /** The lock in the kind's exclusive role, which the waiter takes. */
  readonly lock: ConformantLock;
  /** The same lock in the holder's role, which sees the holder's lease. */
  readonly observer: ConformantLock;
  /** Resolves with the hold and when it was granted (`performance.now()`). */
  readonly taken: Promise<{ readonly held: HeldLock; readonly at: number }>;
}

/**
 * Starts a waiter on each of the holder's locks, on `client`. The holder is anything that holds
 * the locks `names` (in subject order): a holder worker, or a Redisson peer (hammer-redisson).
 */
export function waitOnEach(
  client: LockClient,
  subjects: readonly LockSubject<ReliabilityKind>[],
  holder: Pick<Holder, 'names'>,
  waitTime: number,
): Waiter[] {
  return subjects.map((subject, index) => {
    const name = holder.names[index] ?? '';
    const lock = subject.kind.create([client], name, exclusiveRole(subject.kind).name);
    const observer = subject.kind.create([client], name, subject.role.name);
    const taken = lock.acquire({ waitTime }).then((held) => ({ held, at: performance.now() }));
    // Observed later; a rejection before then must not count as unhandled.
    taken.catch(() => undefined);
    return { subject, lock, observer, taken };
  });
}

/**
 * When each waiter's lock ends at the earliest, as `performance.now()` times: read right after a
 * fault, before + remaining TTL. The lock cannot be free before it, however late this runs.
 */
export async function earliestEnds(waiters: readonly Waiter[]): Promise<number[]> {
  return Promise.all(
    waiters.map(async ({ observer, subject }) => {
      const before = performance.now();
      const ttl = await observer.remainingTtl();
      if (ttl === null || ttl === Infinity)
        throw new Error(`${subject.label}: expected a held lock with a lease, got TTL ${ttl}`);
      return before + ttl;
    }),
  );
}

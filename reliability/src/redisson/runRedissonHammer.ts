import { IllegalMonitorStateError, type RedissonPeer } from '@deadbolt/conformance';
import { LockLostError, type LockClient } from '@deadbolt/core';
import { sleep, type RedisAddress } from '@deadbolt/test-harness';
import { monotonicMicros } from '../clock.js';
import { FaultLog } from '../faults/FaultLog.js';
import type { ReleaseOutcome } from '../hammer/hammerEvents.js';
import { findOverlaps, type Overlap } from '../hammer/overlaps.js';
import { resourceState, type HammerHold, type HammerReport } from '../hammer/runHammer.js';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { ReliabilityKind } from '../kinds.js';
import { resourceKeys, ResourceStore } from '../store/ResourceStore.js';
import { redissonCounterpart } from './redissonCounterpart.js';

/** Who took a hold: a task of a Deadbolt client, or a thread of the Redisson peer (a Java service). */
export type HolderSide = 'deadbolt' | 'redisson';

/** Which hold of the run it is: what a work schedule ({@link RedissonHammerOptions.workMs}) decides by. */
export interface HoldTurn {
  readonly side: HolderSide;
  /** The index of the subject in {@link RedissonHammerOptions.subjects}. */
  readonly subject: number;
  /** The task (Deadbolt: numbered across its clients) or peer thread, from 0, within the subject. */
  readonly task: number;
  /** The hold's place among its task's holds, from 0. */
  readonly iteration: number;
}

/** One hold of a run, with the side that took it. */
export interface RedissonHammerHold extends HammerHold {
  readonly side: HolderSide;
}

/** One run of Deadbolt clients and a Redisson peer on the same locks, in the test process. */
export interface RedissonHammerOptions {
  /** Deadbolt's clients: each runs {@link RedissonHammerOptions.tasksPerClient} tasks per subject. */
  readonly clients: readonly LockClient[];
  /** The Java service: {@link RedissonHammerOptions.threadsPerSubject} threads per subject. */
  readonly peer: RedissonPeer;
  /** The server of the guarded resources (see `ResourceStore`). */
  readonly store: RedisAddress;
  /** What both sides take, each on one lock per kind (a read-write lock's roles share their lock). */
  readonly subjects: readonly LockSubject<ReliabilityKind>[];
  /** A label unique to the run, for lock names; one hash tag, so a cluster keeps them in one slot. */
  readonly label: string;
  readonly tasksPerClient: number;
  readonly threadsPerSubject: number;
  /** Holds each task and each thread takes, one after the other. */
  readonly holdsPerTask: number;
  /**
   * How long a hold works between its read and its write (a reader: how long it holds), in ms.
   * Some should outlast a renewal interval of either side's watchdog, or its whole lease.
   */
  workMs(turn: HoldTurn): number;
  /**
   * How long a task or thread waits after the release of `turn`'s hold before it asks again, in
   * ms: a service does other things between holds. Without it, a non-fair lock goes to whoever asks
   * first, nearly always the task in the releasing process, and the other side's woken waiters
   * rarely get a turn.
   */
  pauseMs(turn: HoldTurn): number;
  /** The longest any one acquisition may wait, on either side, before the run fails. */
  readonly waitTime: number;
}

/** Everything a run saw: a `HammerReport` (what the hammer's checks read) and the peer's share. */
export interface RedissonHammerReport extends HammerReport {
  readonly holds: readonly RedissonHammerHold[];
  readonly overlaps: readonly Overlap<RedissonHammerHold>[];
  /** The lock names, by kind id. */
  readonly lockNames: ReadonlyMap<string, string>;
  /** Holds each side was to take per subject, by side. */
  readonly planned: Readonly<Record<HolderSide, number>>;
  /** The peer's lease (`lockWatchdogTimeout`), in monotonic microseconds. */
  readonly leaseMicros: number;
  /** How often the peer's renewal tasks ran during the run. */
  readonly peerRenewals: { readonly lockTask: number; readonly readLockTask: number };
}

/** A lock one side has taken, as the shared hold loop sees it. */
interface Taken {
  /** Whether the holder has been told that it lost the lock (Deadbolt's signal; Redisson tells nothing). */
  lost(): boolean;
  release(): Promise<ReleaseOutcome>;
}

/** One task or thread of either side: its owner, its subject, and how it takes the lock. */
interface Contender {
  readonly side: HolderSide;
  readonly owner: string;
  readonly subject: number;
  readonly task: number;
  /** The lock's name (the guarded resource's too). */
  readonly lock: string;
  take(): Promise<Taken>;
}

/**
 * Deadbolt's tasks (on several clients) and the Redisson peer's threads take turns on one lock of
 * each subject's kind, in the test process. Inside every hold each reads the guarded counter,
 * works ({@link RedissonHammerOptions.workMs}) and writes it back plus one (exclusive roles),
 * exactly as the hammer workers do, so that two holders at once show up as overlapping intervals
 * (on the monotonic clock) and as a lost update. Peer threads take their locks without a lease:
 * the peer's `LockTask` and `ReadLockTask` keep them.
 */
export async function runRedissonHammer(options: RedissonHammerOptions): Promise<RedissonHammerReport> {
  const { peer } = options;
  const lockNames = new Map(options.subjects.map(({ kind }) => [kind.id, `{${options.label}}:${kind.id}`]));
  const nameOf = (subject: LockSubject<ReliabilityKind>) => lockNames.get(subject.kind.id) ?? '';
  const contenders = options.subjects.flatMap((subject, index): Contender[] => {
    const place = (task: number): Place => ({
      subject: index,
      task,
      lock: nameOf(subject),
      waitTime: options.waitTime,
    });
    const tasks = options.clients.flatMap((client, clientIndex) =>
      Array.from({ length: options.tasksPerClient }, (_, task) =>
        deadboltTask(client, subject, place(clientIndex * options.tasksPerClient + task)),
      ),
    );
    const threads = Array.from({ length: options.threadsPerSubject }, (_, thread) =>
      peerThread(peer, subject, place(thread)),
    );
    return [...tasks, ...threads];
  });

  const runsBefore = { lockTask: peer.renewals.lockTask.runs, readLockTask: peer.renewals.readLockTask.runs };
  const holds: RedissonHammerHold[] = [];
  await Promise.all(contenders.map((contender) => takeTurns(contender, options, holds)));
  const leaseMicros = peer.config.lockWatchdogTimeout * 1000;
  return {
    holds,
    overlaps: findOverlaps(holds, [], leaseMicros),
    resources: await Promise.all([...lockNames.values()].map((lock) => resourceState(options.store, lock))),
    retried: {},
    faults: new FaultLog(),
    lockNames,
    leaseMicros,
    planned: {
      deadbolt: options.clients.length * options.tasksPerClient * options.holdsPerTask,
      redisson: options.threadsPerSubject * options.holdsPerTask,
    },
    peerRenewals: {
      lockTask: peer.renewals.lockTask.runs - runsBefore.lockTask,
      readLockTask: peer.renewals.readLockTask.runs - runsBefore.readLockTask,
    },
  };
}

/** A Deadbolt task's or a peer thread's subject, number and lock, and how long it may wait for it. */
interface Place {
  readonly subject: number;
  readonly task: number;
  readonly lock: string;
  readonly waitTime: number;
}

/** A task of a Deadbolt client: a lock object of its own (so a generated owner), taken with a bounded wait. */
function deadboltTask(
  client: LockClient,
  subject: LockSubject<ReliabilityKind>,
  { subject: index, task, lock: name, waitTime }: Place,
): Contender {
  const lock = subject.kind.create([client], name, subject.role.name);
  return {
    side: 'deadbolt',
    subject: index,
    task,
    owner: `deadbolt.${index}.${client.id}.${task}`,
    lock: name,
    async take() {
      const held = await lock.acquire({ waitTime });
      return {
        lost: () => held.signal.aborted,
        release: () => settleRelease(held.release(), LockLostError),
      };
    },
  };
}

/** A thread of the peer: Redisson's `lock()` without a lease (the watchdog renews it) and `unlock()`. */
function peerThread(
  peer: RedissonPeer,
  subject: LockSubject<ReliabilityKind>,
  { subject: index, task, lock: name, waitTime }: Place,
): Contender {
  const lock = redissonCounterpart(peer, subject, name);
  const thread = peer.newThreadId();
  return {
    side: 'redisson',
    subject: index,
    task,
    owner: `redisson.${index}.${peer.id}:${thread}`,
    lock: name,
    async take() {
      await within(lock.lock(thread), waitTime, `Redisson thread ${thread} waiting for ${subject.label}`);
      return {
        lost: () => false,
        release: () => settleRelease(lock.unlock(thread), IllegalMonitorStateError),
      };
    },
  };
}

/** The hold loop both sides share: take, read, work, write, release; one {@link RedissonHammerHold} per hold. */
async function takeTurns(
  contender: Contender,
  options: RedissonHammerOptions,
  holds: RedissonHammerHold[],
): Promise<void> {
  const subject = options.subjects[contender.subject];
  if (subject === undefined) throw new Error(`unknown subject ${contender.subject}`);
  const { lock } = contender;
  const keys = resourceKeys(lock);
  const store = await ResourceStore.connect(options.store);
  try {
    for (let iteration = 0; iteration < options.holdsPerTask; iteration++) {
      const id = `${contender.owner}.${iteration}`;
      const requested = monotonicMicros();
      const taken = await contender.take();
      const start = monotonicMicros();
      const read = await store.read(keys);
      const turn: HoldTurn = { side: contender.side, subject: contender.subject, task: contender.task, iteration };
      await sleep(options.workMs(turn));
      const wrote = read.accepted && subject.role.exclusive ? await store.write(keys, read.value + 1, id) : false;
      const end = monotonicMicros();
      const lost = taken.lost();
      const outcome = await taken.release();
      await sleep(options.pauseMs(turn));
      holds.push({
        id,
        side: contender.side,
        subject: subject.label,
        lock,
        owner: contender.owner,
        pid: process.pid,
        exclusive: subject.role.exclusive,
        requested,
        start,
        end,
        outcome,
        wrote,
        rejected: !read.accepted,
        lost,
      });
    }
  } finally {
    store.close();
  }
}

/** `released`, or `not-held` when the release failed with `notHeld` (the lock was no longer the owner's). */
async function settleRelease(
  release: Promise<void>,
  notHeld: abstract new (...args: never[]) => Error,
): Promise<ReleaseOutcome> {
  try {
    await release;
    return 'released';
  } catch (error) {
    if (error instanceof notHeld) return 'not-held';
    throw error;
  }
}

/** `promise`, or a failure naming `what` once `ms` have passed (a wait without a bound of its own). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { Backend } from '@deadbolt/conformance/connect';
import { DEFAULT_SUBSCRIBER_NAME } from '@deadbolt/core/adapter';
import { sleep, waitFor, type ProxyGroup } from '@deadbolt/test-harness';
import type { FaultLog, FaultType } from '../faults/FaultLog.js';
import type { HammerFault } from '../hammer/runHammer.js';
import type { WorkerProcess } from '../process/WorkerProcess.js';
import { monotonicMicros } from '../clock.js';
import type { PermitEvent } from './permitEvents.js';
import type { PermitSemaphore } from './permitKinds.js';

/** A permit-hammer worker process, as faults see it. */
export type PermitWorker = WorkerProcess<PermitEvent>;

/** What a fault can reach while the permit hammer runs. */
export interface PermitFaultContext {
  readonly backend: Backend;
  readonly log: FaultLog;
  /** The semaphore's name. */
  readonly name: string;
  /** The workers, running or ended. */
  readonly workers: readonly PermitWorker[];
  /** The fault proxies the workers connect through, in a proxied run. */
  readonly proxies: ProxyGroup | undefined;
  /** The semaphore on the test process's own client, which no fault touches: the operator's. */
  readonly operator: PermitSemaphore;
  /** What the operator gave back for killed holders, in order (a kind without leases). */
  readonly restored: PermitRestore[];
  /** Whether the kind's permits have leases: a killed holder's come back by themselves. */
  readonly leased: boolean;
  /** The workers killed holding permits, in order. */
  readonly kills: PermitKill[];
  /** The workers' `commandTimeout`: how long a request's deadline and records last (late copies). */
  readonly commandTimeout: number;
  /** Finishes a fault in the background while the run goes on; the run awaits it before its figures are read. */
  readonly finishLater: (task: Promise<void>) => void;
}

/** A worker killed holding permits: `permits`, what its events say it held, at `at` (monotonic microseconds). */
export interface PermitKill {
  readonly pid: number;
  readonly permits: number;
  readonly at: number;
}

/** Permits the operator gave back for a killed worker: what its events say it held when it died. */
export interface PermitRestore {
  readonly pid: number;
  readonly permits: number;
  /** When the give-back was sent, in monotonic microseconds: the dead holder's grants end then. */
  readonly at: number;
}

/**
 * A fault the permit hammer injects once, when its turn comes; counted once injected, unless
 * `inject` resolves `false`: its target never came (nothing to inject it into).
 */
export interface PermitFault {
  readonly type: FaultType;
  inject(context: PermitFaultContext): Promise<boolean | void>;
}

/**
 * A fault of the lock hammer that reaches only the backend, its proxies and the locks' names
 * (subscriber CLIENT KILL, the proxy's cuts, partitions and resets), for the permit hammer.
 */
export function permitFault(fault: HammerFault): PermitFault {
  return {
    type: fault.type,
    inject: ({ backend, log, name, proxies, commandTimeout, finishLater }) =>
      fault.inject({
        backend,
        otherBackends: [],
        log,
        lockNames: new Map([['semaphore', name]]),
        proxies,
        commandTimeout,
        finishLater,
        holdingWorker: () => {
          throw new Error(
            `the fault "${fault.type}" needs a lock-hammer worker; the permit hammer has its own process faults`,
          );
        },
      }),
  };
}

// How long a kill waits for a worker to hold permits: a busy hammer always has one within moments.
const TARGET_TIMEOUT_MS = 10_000;
// How long a worker may take to freeze: its requests in flight come back within moments.
const FREEZE_TIMEOUT_MS = 10_000;
// How long a subscriber kill waits for a subscriber connection, and how often it looks.
const SUBSCRIBER_TIMEOUT_MS = 3_000;
const SUBSCRIBER_POLL_MS = 5;

/**
 * SIGKILLs a running worker as soon as one holds permits (the one with the most, when several
 * do), once it froze (see PermitEvent 'frozen'). Without leases its permits are never given
 * back by themselves: an operator then gives back exactly what its events say it held, so the
 * others can go on, and the end count checks that this was what it kept. A leased kind's permits come back when their lease ends: nobody
 * gives them back.
 */
export const killPermitHolder: PermitFault = {
  type: 'holder process SIGKILL',
  async inject({ workers, operator, restored, leased, kills }) {
    let chosen: PermitWorker | undefined;
    await waitFor(() => (chosen = mostHolding(workers)) !== undefined, {
      timeoutMs: TARGET_TIMEOUT_MS,
      intervalMs: 1,
      description: 'a running worker holds permits',
    });
    if (chosen === undefined) return;
    // Frozen first, so that nothing it sent is in flight: it keeps exactly what its events say.
    // Killed mid-request it could keep permits nobody knows of, and with few enough left the
    // others would wait for them for good.
    const target = chosen;
    target.send('freeze');
    await waitFor(
      () =>
        target.exit !== undefined || target.events.some((event) => event.event === 'frozen' || event.event === 'done'),
      {
        timeoutMs: FREEZE_TIMEOUT_MS,
        intervalMs: 1,
        description: `worker ${target.pid} frozen`,
      },
    );
    // Every line it printed is in once it is gone.
    await target.kill();
    const permits = permitsHeld(target.events);
    kills.push({ pid: target.pid, permits, at: monotonicMicros() });
    if (leased) return;
    restored.push({ pid: target.pid, permits, at: monotonicMicros() });
    if (permits > 0) await operator.addPermits(permits);
  },
};

/**
 * Kills the workers' subscriber connections (CLIENT KILL) as soon as there is one: wake-ups in
 * flight are lost, and a waiter must still get its permits. The workers may have none for a
 * while (between a kill and its reconnect; seen for seconds with node-redis on a cluster late in
 * a run, when few wait), so this waits for one, and resolves `false` when none came within
 * SUBSCRIBER_TIMEOUT_MS.
 */
export const killPermitSubscribers: PermitFault = {
  type: 'subscriber CLIENT KILL',
  async inject({ backend }) {
    const deadline = Date.now() + SUBSCRIBER_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if ((await backend.killClientsByName(DEFAULT_SUBSCRIBER_NAME)) > 0) return true;
      await sleep(SUBSCRIBER_POLL_MS);
    }
    return false;
  },
};

function mostHolding(workers: readonly PermitWorker[]): PermitWorker | undefined {
  let most: { worker: PermitWorker; held: number } | undefined;
  for (const worker of workers) {
    const held = worker.exit === undefined ? permitsHeld(worker.events) : 0;
    if (held > (most?.held ?? 0)) most = { worker, held };
  }
  return most?.worker;
}

/** The permits a worker's events say it holds: acquired and not yet being given back. */
export function permitsHeld(events: readonly PermitEvent[]): number {
  const asked = new Map<string, number>();
  let held = 0;
  for (const event of events) {
    if (event.event === 'asking') asked.set(event.hold, event.permits);
    if (event.event === 'acquired') held += asked.get(event.hold) ?? 0;
    if (event.event === 'releasing') held -= asked.get(event.hold) ?? 0;
  }
  return held;
}

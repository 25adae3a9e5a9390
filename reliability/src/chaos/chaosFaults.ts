import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@deadbolt/test-harness';
import { monotonicMicros } from '../clock.js';
import type { ChaosHost } from './ChaosNetwork.js';
import type { ProcessClock } from './ProcessClock.js';
import type { ServerClock } from './ServerClock.js';
import type { ChaosFault } from './runChaosHammer.js';

/**
 * Cuts `hosts` off from every other host, silently, for `ms` from the next grant (during that
 * hold), then joins them again. With `cutOff` (the locks cannot be kept: their server, or a
 * RedLock's majority) it is recorded as a cut-off, during which a hold may be lost if it is told;
 * without, no hold may be lost.
 */
export function isolateHosts(hosts: readonly ChaosHost[], ms: number, { cutOff }: { cutOff: boolean }): ChaosFault {
  return {
    type: 'host isolated (link down)',
    inject: async ({ log, nextGrant }) => {
      await nextGrant();
      const from = monotonicMicros();
      await Promise.all(hosts.map((host) => host.isolate()));
      try {
        await sleep(ms);
      } finally {
        await Promise.all(hosts.map((host) => host.heal()));
      }
      if (cutOff) log.recordCutOff({ from, to: monotonicMicros() });
      hosts.forEach(() => log.record('host isolated (link down)'));
    },
  };
}

/** Jumps `clock` (the wall clock of client processes) to `spec` (`+3600`: an hour ahead). */
export function jumpClock(clock: ProcessClock, spec: string): ChaosFault {
  return {
    type: 'client wall clock jumped',
    inject: ({ log }) => {
      clock.set(spec);
      log.record('client wall clock jumped');
      return Promise.resolve();
    },
  };
}

/**
 * Jumps a lock server's wall clock `ms` forward at the next grant (during that hold), and pushes
 * the moment it did (monotonic microseconds) onto `jumpedAt`; `beforeJump` looks at the servers
 * first (what the holder has where).
 */
export function jumpServerClock(
  clock: ServerClock,
  ms: number,
  jumpedAt: number[],
  beforeJump: () => Promise<void> = () => Promise.resolve(),
): ChaosFault {
  return {
    type: 'lock server wall clock jumped forward',
    inject: async ({ log, nextGrant }) => {
      await nextGrant();
      await beforeJump();
      jumpedAt.push(monotonicMicros());
      clock.jump(ms);
      log.record('lock server wall clock jumped forward');
    },
  };
}

/** What {@link splitOffDuringFailover} waits for, and how long. */
export interface FailoverWaits {
  /** Whether the majority side has promoted a new master. */
  readonly failedOver: () => Promise<boolean>;
  /** Whether the old master follows the new one again (Sentinel demotes it once it sees it). */
  readonly demoted: () => Promise<boolean>;
  /** How long the split lasts once the new master is in place: the two sides both take locks meanwhile. */
  readonly splitAfterFailoverMs: number;
  /** Filled in as the split goes. */
  readonly timings: SplitTimings;
}

/** When a split lasted (monotonic microseconds) and how long the majority took to fail over (ms). */
export interface SplitTimings {
  failoverMs?: number;
  split?: { readonly from: number; readonly to: number };
}

/**
 * Splits `minority` (the master's host and a client host) off from every other host right after
 * the next grant: they reach each other and nobody else, silently. Waits until the majority side
 * fails over, keeps the split `splitAfterFailoverMs` longer, joins them again and waits until the
 * old master is a replica, and records the split until then (see `FaultLog.recordSplit`). Not a
 * cut-off: both sides can reach a master all along.
 */
export function splitOffDuringFailover(minority: readonly ChaosHost[], waits: FailoverWaits): ChaosFault {
  return {
    type: 'minority split off, Sentinel failover',
    inject: async ({ log, nextGrant }) => {
      await nextGrant();
      const from = performance.now();
      const splitFrom = monotonicMicros();
      await Promise.all(minority.map((host) => host.splitOff()));
      try {
        await waitFor(waits.failedOver, { timeoutMs: 20_000, intervalMs: 50, description: 'the majority fails over' });
        waits.timings.failoverMs = Math.round(performance.now() - from);
        await sleep(waits.splitAfterFailoverMs);
      } finally {
        await Promise.all(minority.map((host) => host.rejoin()));
        waits.timings.split = { from: splitFrom, to: monotonicMicros() };
      }
      await waitFor(waits.demoted, { timeoutMs: 20_000, intervalMs: 50, description: 'the old master is demoted' });
      // Until then the old master still takes the minority's calls: a grant is a recovery only after.
      log.recordSplit({ from: splitFrom, to: monotonicMicros() });
      log.record('minority split off, Sentinel failover');
    },
  };
}

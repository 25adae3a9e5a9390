import { setTimeout as sleep } from 'node:timers/promises';
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
 * the moment it did (monotonic microseconds) onto `jumpedAt`.
 */
export function jumpServerClock(clock: ServerClock, ms: number, jumpedAt: number[]): ChaosFault {
  return {
    type: 'lock server wall clock jumped forward',
    inject: async ({ log, nextGrant }) => {
      await nextGrant();
      jumpedAt.push(monotonicMicros());
      clock.jump(ms);
      log.record('lock server wall clock jumped forward');
    },
  };
}

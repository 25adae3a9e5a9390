import { counterDelta, flushServer, keyCount, serverCounters } from '../commandStats.js';
import type { Contender, Hold } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { inTasks, sleep } from '../measure.js';
import type { ScenarioSpec } from '../report.js';

/** The shape of a watchdog run. */
export interface WatchdogOptions {
  readonly locks: number;
  /** The lease every library keeps the locks alive with. */
  readonly leaseMs: number;
  /** How long the locks are held and watched; longer than the lease, so only renewal keeps them. */
  readonly windowMs: number;
}

/** Scenario 7's table. */
export function watchdogSpec(options: WatchdogOptions): ScenarioSpec {
  return {
    id: 'watchdog',
    title: `7. Watchdog at scale: ${options.locks.toLocaleString('en-US')} held locks`,
    measures: `${options.locks.toLocaleString('en-US')} locks held on one client and kept alive by the library with a ${options.leaseMs / 1000} s lease, watched for ${options.windowMs / 1000} s: the round trips the client sends (nothing else runs, and renewals are script calls, counted by Redis), the lock renewals Redis made (TTL-setting commands, from INFO commandstats), and the locks still there at the end (the window is longer than the lease).`,
    floor:
      'a renewal pass renews every lock once; its round trips are the cost, and one script call can renew many keys (Deadbolt sends 500 per call: 20 calls for 10,000 locks).',
    columns: [
      { key: 'locksAliveAtEnd', label: 'locks alive at end', across: 'min' },
      { key: 'renewalsPerSecond', label: 'renewals/s' },
      { key: 'roundTripsPerSecond', label: 'round trips/s' },
      { key: 'roundTripsPerPass', label: 'round trips per pass' },
      { key: 'renewalsPerRoundTrip', label: 'renewals per round trip' },
      { key: 'clientCpuPercent', label: 'client CPU %' },
      { key: 'serverCpuPercent', label: 'server CPU %' },
    ],
    headlines: [{ key: 'roundTripsPerPass', better: 'lower' }],
    feature: 'autoExtend',
  };
}

// How many locks are taken and released at once while setting up and tearing down.
const CONCURRENCY = 64;

/**
 * Scenario 7 for one contender, on a server of the benchmark's own (it is flushed, so that the
 * keys left at the end are the locks alive).
 */
export async function watchdog(contender: Contender, address: Address, options: WatchdogOptions) {
  await flushServer(address);
  const session = await contender.connect(address, { lease: options.leaseMs });
  const { renewedHold } = session;
  if (!renewedHold) throw new Error(`${contender.id} has no automatic extension`);
  const holds: Hold[] = [];
  try {
    let next = 0;
    await inTasks(CONCURRENCY, Math.ceil(options.locks / CONCURRENCY), async () => {
      const index = next++;
      if (index < options.locks) holds.push(await renewedHold(`bench:watchdog:${index}`));
    });
    const before = await serverCounters(address);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await sleep(options.windowMs);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const server = counterDelta(before, await serverCounters(address));
    // Nothing but renewal runs in the window, and every library renews with scripts: counting the
    // script calls on the server, in the same snapshots as the renewals, keeps the two in step.
    const roundTrips = server.scriptCalls + server.subscriptionCommands;
    const alive = await keyCount(address);
    const passes = server.ttlCommands / options.locks;
    return {
      locksAliveAtEnd: alive,
      renewalsPerSecond: server.ttlCommands / seconds,
      roundTripsPerSecond: roundTrips / seconds,
      roundTripsPerPass: roundTrips / passes,
      renewalsPerRoundTrip: server.ttlCommands / roundTrips,
      clientCpuPercent: ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100,
      serverCpuPercent: (server.cpuMs / (seconds * 1000)) * 100,
    };
  } finally {
    // A lock the library let expire refuses its release; that shows in the locks alive already.
    await inTasks(CONCURRENCY, Math.ceil(holds.length / CONCURRENCY), async () => {
      await holds
        .pop()
        ?.release()
        .catch(() => undefined);
    });
    await session.close();
  }
}

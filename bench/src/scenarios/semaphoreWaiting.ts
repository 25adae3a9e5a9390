// Scenario 9c: what waiting costs Redis. Every permit of a semaphore is held, many tasks of one
// process wait for one each, and the server's command count over a window tells how they wait:
// a polling library's waiters each ask again every retry interval, a waiter woken by pub/sub asks
// when the semaphore changes. Then the permits come back, and every waiter must get its turn.
import { counterDelta, serverCounters } from '../commandStats.js';
import type { Contender, Hold } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { sleep } from '../measure.js';
import type { ScenarioSpec } from '../report.js';
import { sharedNow } from '../stats.js';

const MS_PER_SECOND = 1000;

/** The shape of one waiting run. */
export interface SemaphoreWaitingOptions {
  /** The semaphore's permits, all held while the waiters wait. */
  readonly permits: number;
  /** Tasks that wait for one permit each. */
  readonly waiters: number;
  /** How long the server's commands are counted while the waiters wait. */
  readonly windowMs: number;
  /** How long the waiters may take to get through once the permits are back. */
  readonly drainMs: number;
}

/** Scenario 9c's table. */
export function semaphoreWaitingSpec({ permits, waiters, windowMs }: SemaphoreWaitingOptions): ScenarioSpec {
  return {
    id: 'semaphore-waiting',
    title: '9c. Semaphore: Redis load while waiting',
    measures: `every one of a semaphore's ${permits} permits is held; ${waiters} tasks of one process then ask for one permit each and wait, and the commands Redis runs are counted for ${windowMs / 1000} s from their first request (every command, script-run ones included; round trips: commands the clients sent, plus subscriptions). Then the permits come back: served is how many waiters got a permit afterwards (must be all of them), and the time until the last one had.`,
    floor: `one round trip per waiter over the window: each waiter asking once, ${waiters} ÷ ${windowMs / 1000} s.`,
    columns: [
      { key: 'commandsPerSecond', label: 'Redis commands/s' },
      { key: 'roundTripsPerSecond', label: 'round trips/s' },
      { key: 'floorPerSecond', label: 'floor round trips/s' },
      { key: 'ratioToFloor', label: 'round trips ÷ floor' },
      { key: 'serverCpuPercent', label: 'server CPU %' },
      { key: 'servedWhileHeld', label: 'served while held', across: 'max' },
      { key: 'served', label: 'served after', across: 'min' },
      { key: 'allServedMs', label: 'all served in ms' },
    ],
    headlines: [{ key: 'commandsPerSecond', better: 'lower' }],
    notes: [
      "redis-semaphore's waiters ask again every retry interval (10 ms, its default); Deadbolt's ask, join the semaphore's channel, ask once more and sleep until a release is announced.",
    ],
    feature: 'semaphore',
  };
}

/** One waiting run of `contender`'s semaphore, on one connection of this process. */
export async function semaphoreWaiting(contender: Contender, address: Address, options: SemaphoreWaitingOptions) {
  const session = await contender.connect(address);
  try {
    if (!session.semaphore) throw new Error(`${contender.id} has no semaphore`);
    const semaphore = await session.semaphore(
      `bench:semaphore-waiting:${contender.id}:${sharedNow()}`,
      options.permits,
      1,
    );
    const held: Hold[] = [];
    for (let i = 0; i < options.permits; i++) held.push(await semaphore.acquire());
    const before = await serverCounters(address);
    const sentBefore = session.connection.counter.sent;
    let served = 0;
    const waiting = Promise.all(
      Array.from({ length: options.waiters }, async () => {
        const permit = await semaphore.acquire();
        served++;
        await permit.release();
      }),
    );
    await sleep(options.windowMs);
    const during = counterDelta(before, await serverCounters(address));
    const roundTrips = session.connection.counter.sent - sentBefore + during.subscriptionCommands;
    const servedWhileHeld = served;
    const released = performance.now();
    await Promise.all(held.map((hold) => hold.release()));
    const drained = await Promise.race([waiting.then(() => true), sleep(options.drainMs).then(() => false)]);
    // Waiters still waiting fail when the session closes: they are counted, not awaited.
    if (!drained) waiting.catch(() => undefined);
    const seconds = options.windowMs / MS_PER_SECOND;
    const floorPerSecond = options.waiters / seconds;
    return {
      commandsPerSecond: during.commands / seconds,
      roundTripsPerSecond: roundTrips / seconds,
      floorPerSecond,
      ratioToFloor: roundTrips / seconds / floorPerSecond,
      serverCpuPercent: (during.cpuMs / options.windowMs) * 100,
      servedWhileHeld,
      served: served - servedWhileHeld,
      allServedMs: drained ? performance.now() - released : Number.NaN,
    };
  } finally {
    await session.close();
  }
}

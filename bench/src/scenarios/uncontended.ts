import { LockClient } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '@deadbolt/conformance/connect';
import { roundTripsServed } from '../commandStats.js';
import { round } from '../stats.js';
import { scriptRoundTrip } from './floor.js';

/** Scenario 1: uncontended lock + unlock, sequential, one client, against two trivial EVALSHA round trips. */
export async function uncontended(spec: ConnectionSpec, cycles: number) {
  const { executor, close } = await connectExecutor(spec);
  const client = new LockClient(executor);
  try {
    const lock = client.lock('bench:uncontended');
    for (let i = 0; i < Math.min(500, cycles); i++) await (await lock.acquire()).release();
    const floor = await scriptRoundTrip(executor, cycles * 2);
    const address = spec.nodes[0]!;
    const tripsBefore = await roundTripsServed(address);
    const started = performance.now();
    for (let i = 0; i < cycles; i++) await (await lock.acquire()).release();
    const elapsed = performance.now() - started;
    const trips = (await roundTripsServed(address)) - tripsBefore;
    const cyclesPerSecond = (cycles / elapsed) * 1000;
    const floorCyclesPerSecond = floor.perSecond / 2;
    return {
      cyclesPerSecond: round(cyclesPerSecond),
      floorCyclesPerSecond: round(floorCyclesPerSecond),
      ratioToFloor: round(cyclesPerSecond / floorCyclesPerSecond),
      roundTripsPerCycle: round(trips / cycles),
    };
  } finally {
    await client.close();
    await close();
  }
}

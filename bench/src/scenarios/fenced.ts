import { FENCED_LOCK, LOCK } from '@deadbolt/conformance/kinds';
import { LockClient } from '@deadbolt/core';
import type { ReplicatedHandle } from '@deadbolt/test-harness';
import type { Contender } from '../contenders/Contender.js';
import { executorOn } from '../contenders/deadbolt.js';
import { connect, disconnect, type Connection } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { round } from '../stats.js';

/** Scenario 1b's table: what a fencing token and replica sync cost over the plain lock. */
export const FENCED: ScenarioSpec = {
  id: 'fenced',
  title: '1b. Fenced lock and replica sync',
  measures:
    'acquire + release cycles per second, sequential, one client, on a master with one live replica: the plain Lock, the FencedLock (a token drawn in the acquire script), and the plain Lock on a client with replica sync on (WAIT for 1 replica after acquire and after release).',
  floor: "the plain Lock's own cycles in blocks interleaved with the other two, on the same master; ratios are to it.",
  columns: [
    { key: 'plainCyclesPerSecond', label: 'plain cycles/s' },
    { key: 'fencedCyclesPerSecond', label: 'fenced cycles/s' },
    { key: 'fencedToPlain', label: 'fenced ÷ plain time per cycle' },
    { key: 'syncedCyclesPerSecond', label: 'replica-synced cycles/s' },
    { key: 'syncCostPerAcquireMs', label: 'replica sync cost per acquire ms' },
  ],
  notes: ['Deadbolt only: no peer offers fencing tokens or replica sync. Target: fenced ÷ plain at most 1.1.'],
};

/** What the loop needs of a lock: the plain Lock and the FencedLock alike. */
interface Acquirable {
  acquire(): Promise<{ release(): Promise<void> }>;
}

interface Variant {
  readonly connection: Connection;
  readonly client: LockClient;
  readonly lock: Acquirable;
  ms: number;
}

/** Scenario 1b for one Deadbolt contender: `blocks` turns of `cycles` cycles for each variant. */
export async function fenced(
  contender: Contender,
  deployment: ReplicatedHandle,
  size: { cycles: number; blocks: number },
): Promise<Record<string, number>> {
  const address = { host: deployment.master.host, port: deployment.master.port };
  const open = async (make: (client: LockClient) => Acquirable, options = {}): Promise<Variant> => {
    const connection = await connect(contender.driver, address);
    const client = new LockClient(executorOn(connection), options);
    return { connection, client, lock: make(client), ms: 0 };
  };
  const name = `bench:fenced:${contender.id}`;
  const variants = {
    plain: await open((client) => LOCK.create([client], `${name}:plain`, 'lock')),
    fenced: await open((client) => FENCED_LOCK.create([client], `${name}:fenced`, 'lock')),
    synced: await open((client) => LOCK.create([client], `${name}:synced`, 'lock'), {
      replicaSync: { timeout: 1_000 },
    }),
  };
  try {
    const order = Object.values(variants);
    for (let block = 0; block < size.blocks; block++) {
      // Each block starts with another variant, so none always runs first on a cold connection.
      for (const variant of [...order.slice(block % 3), ...order.slice(0, block % 3)]) {
        const started = performance.now();
        for (let cycle = 0; cycle < size.cycles; cycle++) await (await variant.lock.acquire()).release();
        variant.ms += performance.now() - started;
      }
    }
  } finally {
    for (const variant of Object.values(variants)) {
      await variant.client.close();
      await disconnect(variant.connection);
    }
  }
  const cycles = size.cycles * size.blocks;
  const perSecond = (variant: Variant) => (cycles * 1000) / variant.ms;
  return {
    plainCyclesPerSecond: round(perSecond(variants.plain)),
    fencedCyclesPerSecond: round(perSecond(variants.fenced)),
    fencedToPlain: round(variants.fenced.ms / variants.plain.ms),
    syncedCyclesPerSecond: round(perSecond(variants.synced)),
    // Two WAITs per cycle, one after the acquire and one after the release.
    syncCostPerAcquireMs: round((variants.synced.ms - variants.plain.ms) / cycles / 2),
  };
}

import type { RedisNode } from '../node/redis-node.js';
import { asText } from '../resp/text.js';
import { waitFor } from '../wait.js';
import { SLOT_COUNT } from './health.js';

/** How long a replica may take to learn of its master by gossip before it can follow it. */
const GOSSIP_TIMEOUT_MS = 30_000;

/**
 * Joins freshly started cluster-enabled nodes into a cluster of `masters.length` masters, as
 * `redis-cli --cluster create` does (the same slot split, a distinct config epoch per node, MEET,
 * then REPLICATE), but without its waits: redis-cli polls for the join once a second, which added
 * up to 3 s to a start whose floor is Redis's own (a master turns `cluster_state:ok` 2 s after it
 * starts at the earliest). The caller waits until the cluster is healthy.
 *
 * @param replicas - one per master at most, `replicas[i]` following `masters[i]`
 */
export async function joinCluster(masters: readonly RedisNode[], replicas: readonly RedisNode[]): Promise<void> {
  const nodes = [...masters, ...replicas];
  await Promise.all(
    masters.map(async (master, i) => {
      const [first, last] = slotRange(i, masters.length);
      await master.command('CLUSTER', 'ADDSLOTSRANGE', String(first), String(last));
    }),
  );
  // Distinct epochs, so that no two masters claim their slots with the same one.
  await Promise.all(nodes.map((node, i) => node.command('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1))));
  const [introducer, ...others] = nodes;
  if (introducer === undefined) throw new Error('joinCluster() needs at least one node');
  await Promise.all(
    others.map(async (node) => {
      const { port, busPort } = await busAddressOf(node);
      await introducer.command('CLUSTER', 'MEET', node.host, String(port), String(busPort));
    }),
  );
  await Promise.all(
    replicas.map(async (replica, i) => {
      const master = masters[i];
      if (master === undefined) throw new Error(`replica ${replica.port} has no master to follow`);
      const masterId = asText(await master.command('CLUSTER', 'MYID'));
      // A node follows only a master it knows of, and it learns of it by gossip after the MEETs.
      await waitFor(async () => asText(await replica.command('CLUSTER', 'NODES')).includes(masterId), {
        timeoutMs: GOSSIP_TIMEOUT_MS,
        intervalMs: 20,
        description: `replica ${replica.port} knows master ${master.port}`,
      });
      await replica.command('CLUSTER', 'REPLICATE', masterId);
    }),
  );
}

/**
 * The ports a node gives the cluster, from its own line of CLUSTER NODES (`ip:port@busport`): with
 * `--tls-cluster yes` they are its TLS port and the bus above it, not the port this code talks to.
 */
async function busAddressOf(node: RedisNode): Promise<{ port: number; busPort: number }> {
  const myself = asText(await node.command('CLUSTER', 'NODES'))
    .split('\n')
    .find((line) => line.split(' ')[2]?.split(',').includes('myself'));
  const address = /:(\d+)@(\d+)/.exec(myself?.split(' ')[1] ?? '');
  if (address === null)
    throw new Error(`node ${node.port} did not report its cluster address: ${myself ?? '(no myself line)'}`);
  return { port: Number(address[1]), busPort: Number(address[2]) };
}

/** The first and last slot of master `index` of `count`, split as redis-cli splits them. */
export function slotRange(index: number, count: number): [number, number] {
  const first = Math.round((index * SLOT_COUNT) / count);
  const next = Math.round(((index + 1) * SLOT_COUNT) / count);
  return [first, next - 1];
}

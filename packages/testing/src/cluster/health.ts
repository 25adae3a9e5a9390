import type { RedisNode } from '../node/redis-node.js';
import type { RedisAddress } from '../resp/connection.js';
import { sendCommand } from '../resp/connection.js';
import type { RespValue } from '../resp/protocol.js';
import { asArray, asInteger, asText, parseInfo } from '../resp/text.js';

/** Redis Cluster has this many hash slots. */
export const SLOT_COUNT = 16_384;

/** One line of CLUSTER SLOTS: a slot range, its master's port and its replicas' ports. */
export interface SlotRange {
  readonly start: number;
  readonly end: number;
  readonly masterPort: number;
  readonly replicaPorts: readonly number[];
}

/** Reads a node's view of the slot map. */
export async function readSlots(node: RedisAddress): Promise<SlotRange[]> {
  const reply = asArray(await sendCommand(node, ['CLUSTER', 'SLOTS']));
  return reply.map((entry) => {
    const [start, end, master, ...replicas] = asArray(entry);
    if (start === undefined || end === undefined || master === undefined)
      throw new Error(`malformed CLUSTER SLOTS entry ${JSON.stringify(entry)}`);
    return {
      start: asInteger(start),
      end: asInteger(end),
      masterPort: portOf(master),
      replicaPorts: replicas.map(portOf),
    };
  });
}

/**
 * Checks that the running nodes form a healthy cluster a client can use without surprises:
 * every one says `cluster_state:ok`, all report the same slot map (so no MOVED bounces between
 * them), the map covers all 16384 slots, every running node appears in it, and every replica's
 * link to its master is up. Throws an error saying what is not yet true; returns the map.
 */
export async function observeHealthyCluster(nodes: readonly RedisNode[]): Promise<SlotRange[]> {
  const running = nodes.filter((n) => n.running);
  let agreed: { port: number; ranges: SlotRange[]; text: string } | undefined;
  for (const node of running) {
    const state = parseInfo(await node.command('CLUSTER', 'INFO')).get('cluster_state');
    if (state !== 'ok') throw new Error(`node ${node.port} says cluster_state:${state ?? '?'}`);
    const ranges = await readSlots(node);
    const text = describeSlots(ranges);
    if (agreed === undefined) agreed = { port: node.port, ranges, text };
    else if (text !== agreed.text)
      throw new Error(`nodes disagree on slots: ${agreed.port} sees ${agreed.text}; ${node.port} sees ${text}`);
  }
  if (agreed === undefined) throw new Error('no cluster node is running');
  const covered = agreed.ranges.reduce((sum, r) => sum + r.end - r.start + 1, 0);
  if (covered !== SLOT_COUNT) throw new Error(`slot map covers ${covered} of ${SLOT_COUNT} slots`);
  const replicaPorts = new Set(agreed.ranges.flatMap((r) => r.replicaPorts));
  const known = new Set([...agreed.ranges.map((r) => r.masterPort), ...replicaPorts]);
  for (const node of running) {
    if (!known.has(node.port)) throw new Error(`node ${node.port} is not in the slot map yet`);
    if (!replicaPorts.has(node.port)) continue;
    const link = parseInfo(await node.command('INFO', 'replication')).get('master_link_status');
    if (link !== 'up') throw new Error(`replica ${node.port} reports master_link_status:${link ?? '?'}`);
  }
  return agreed.ranges;
}

/**
 * What each running node thinks of the cluster (`CLUSTER NODES`, and its current epoch), for the
 * message of a cluster that did not become healthy: who is master, who is failed, which epochs.
 */
export async function describeClusterViews(nodes: readonly RedisNode[]): Promise<string> {
  const views = await Promise.all(
    nodes.map(async (node) => {
      if (!node.running) return `node ${node.port}: not running`;
      try {
        const epoch = parseInfo(await node.command('CLUSTER', 'INFO')).get('cluster_current_epoch');
        return `node ${node.port} (current epoch ${epoch ?? '?'}) sees:\n${asText(await node.command('CLUSTER', 'NODES')).trim()}`;
      } catch (error) {
        return `node ${node.port}: ${(error as Error).message}`;
      }
    }),
  );
  return views.join('\n');
}

/** A canonical text form of a slot map, for comparing two nodes' views. */
function describeSlots(ranges: readonly SlotRange[]): string {
  return [...ranges]
    .sort((a, b) => a.start - b.start)
    .map((r) => `${r.start}-${r.end}@${r.masterPort}[${[...r.replicaPorts].sort((a, b) => a - b).join(',')}]`)
    .join(' ');
}

/** A node in CLUSTER SLOTS is `[ip, port, id, ...]`; all nodes started here share 127.0.0.1. */
function portOf(nodeEntry: RespValue): number {
  return asInteger(asArray(nodeEntry)[1] ?? null);
}

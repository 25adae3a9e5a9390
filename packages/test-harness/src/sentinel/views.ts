import {
  asArray,
  asText,
  parseInfo,
  type RedisAddress,
  type RedisNode,
  type RespValue,
  sendCommand,
} from '@deadbolt/testing/servers';

/** What one Sentinel says about the master it monitors (`SENTINEL MASTER <name>`). */
export interface SentinelView {
  /** The port of the master it names. */
  readonly masterPort: number;
  /** How many replicas of it the Sentinel knows, down ones included. */
  readonly replicas: number;
  /** How many other Sentinels monitoring it this one has heard from. */
  readonly otherSentinels: number;
  /** The master's flags (`master`, `s_down`, `o_down`, `failover_in_progress`, ...). */
  readonly flags: readonly string[];
}

/** Reads one Sentinel's view of the master named `name`. */
export async function readSentinelView(sentinel: RedisAddress, name: string): Promise<SentinelView> {
  const fields = pairs(await sendCommand(sentinel, ['SENTINEL', 'MASTER', name]));
  return {
    masterPort: Number(fields.get('port')),
    replicas: Number(fields.get('num-slaves')),
    otherSentinels: Number(fields.get('num-other-sentinels')),
    flags: (fields.get('flags') ?? '').split(','),
  };
}

/** The ports of the replicas a Sentinel holds for `name` that it does not consider down. */
export async function readLiveReplicaPorts(sentinel: RedisAddress, name: string): Promise<number[]> {
  const replicas = asArray(await sendCommand(sentinel, ['SENTINEL', 'REPLICAS', name])).map(pairs);
  return replicas
    .filter((fields) => !(fields.get('flags') ?? '').includes('down'))
    .map((fields) => Number(fields.get('port')));
}

/**
 * True when the node is a master by its own account and every other running data node replicates
 * it with its link up.
 */
export async function followsMaster(master: RedisNode, nodes: readonly RedisNode[]): Promise<boolean> {
  if (parseInfo(await master.command('INFO', 'replication')).get('role') !== 'master') return false;
  for (const node of nodes) {
    if (node === master || !node.running) continue;
    const info = parseInfo(await node.command('INFO', 'replication'));
    if (
      info.get('role') !== 'slave' ||
      info.get('master_port') !== String(master.port) ||
      info.get('master_link_status') !== 'up'
    )
      return false;
  }
  return true;
}

/** A flat `field, value, field, value, ...` reply as a map. */
function pairs(reply: RespValue): Map<string, string> {
  const items = asArray(reply);
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < items.length; i += 2) fields.set(asText(items[i] ?? null), String(items[i + 1]));
  return fields;
}

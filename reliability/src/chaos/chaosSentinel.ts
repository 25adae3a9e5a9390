import type { ReplicaSyncOptions } from '@deadbolt/core';
import { waitFor } from '@deadbolt/test-harness';
import type { ConnectionSpec, AdapterName } from '@deadbolt/conformance/connect';
import type { ChaosHost, ChaosNetwork } from './ChaosNetwork.js';
import { CHAOS_REDIS_PORT, ChaosRedis } from './ChaosRedis.js';

/** The name the Sentinels monitor the master under. */
export const CHAOS_MASTER_NAME = 'deadbolt';
const SENTINEL_PORT = 26379;
const QUORUM = 2;
// As the suite's Sentinel deployment (test-harness startSentinel): a failover within seconds.
const DOWN_AFTER_MS = 1_000;
const FAILOVER_TIMEOUT_MS = 2_000;

/**
 * The server settings that make a master cut off from its replicas refuse writes (`NOREPLICAS`)
 * once no replica has acknowledged for `min-replicas-max-lag` seconds: given to every data node,
 * since any may become the master.
 */
export const MIN_REPLICAS_ARGS = ['--min-replicas-to-write', '1', '--min-replicas-max-lag', '1'] as const;

/** Replica sync as the fencing guide documents it: as many replicas as could be promoted (both). */
export const SYNC_BOTH_REPLICAS: ReplicaSyncOptions = { replicas: 2, timeout: 500 };

/** A Sentinel deployment on test hosts, a store and client hosts: what scenario 2 of issue 32 needs. */
export interface ChaosSentinelDeployment {
  /** The first master, on host `master`. */
  readonly master: ChaosRedis;
  /** `replica1`, `replica2`. */
  readonly replicas: readonly ChaosRedis[];
  /** `sentinel1` … `sentinel3`, on hosts of their own. */
  readonly sentinels: readonly ChaosRedis[];
  /** The guarded resources' server, on host `store`. */
  readonly store: ChaosRedis;
  /** `client1`, `client2`, …: where the workers run. */
  readonly clients: readonly ChaosHost[];
  /** How `adapter`'s workers reach the master: through the Sentinels, as the conformance backends do. */
  specFor(adapter: AdapterName): ConnectionSpec;
  /** The master's address the Sentinels name now, asked of `sentinel` (the first when absent). */
  masterAddress(sentinel?: ChaosRedis): Promise<string>;
  /** The data node the first Sentinel names the master now. */
  currentMaster(): Promise<ChaosRedis>;
}

/**
 * Adds a master, two replicas, three Sentinels (quorum 2), a store and `clientHosts` client
 * hosts to `network`, each on a host of its own, with `dataArgs` for the data nodes, and resolves
 * once every Sentinel knows both replicas and the two other Sentinels.
 */
export async function startChaosSentinel(
  network: ChaosNetwork,
  clientHosts: number,
  dataArgs: readonly string[] = [],
): Promise<ChaosSentinelDeployment> {
  const master = await ChaosRedis.start(await network.addHost('master'), { args: dataArgs });
  const replicaOf = ['--replicaof', master.address.host, String(CHAOS_REDIS_PORT)];
  const replicas = [
    await ChaosRedis.start(await network.addHost('replica1'), { args: [...dataArgs, ...replicaOf] }),
    await ChaosRedis.start(await network.addHost('replica2'), { args: [...dataArgs, ...replicaOf] }),
  ];
  const config = [
    `sentinel monitor ${CHAOS_MASTER_NAME} ${master.address.host} ${CHAOS_REDIS_PORT} ${QUORUM}`,
    `sentinel down-after-milliseconds ${CHAOS_MASTER_NAME} ${DOWN_AFTER_MS}`,
    `sentinel failover-timeout ${CHAOS_MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
    `sentinel parallel-syncs ${CHAOS_MASTER_NAME} ${replicas.length}`,
    '',
  ].join('\n');
  const sentinels: ChaosRedis[] = [];
  for (const index of [1, 2, 3])
    sentinels.push(
      await ChaosRedis.start(await network.addHost(`sentinel${index}`), {
        config,
        port: SENTINEL_PORT,
        args: ['--sentinel'],
      }),
    );
  const store = await ChaosRedis.start(await network.addHost('store'));
  const clients: ChaosHost[] = [];
  for (let index = 1; index <= clientHosts; index++) clients.push(await network.addHost(`client${index}`));
  const masterAddress = async (sentinel = sentinels[0]) => {
    const reply = await sentinel?.command(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', CHAOS_MASTER_NAME]);
    return Array.isArray(reply) ? String(reply[0]) : '';
  };
  await waitFor(async () => (await Promise.all(sentinels.map(knowsEveryone))).every(Boolean), {
    timeoutMs: 30_000,
    intervalMs: 100,
    description: 'every Sentinel knows both replicas and the other Sentinels',
  });
  return {
    master,
    replicas,
    sentinels,
    store,
    clients,
    masterAddress,
    currentMaster: async () => {
      const address = await masterAddress();
      const named = [master, ...replicas].find((node) => node.address.host === address);
      if (named === undefined) throw new Error(`the Sentinels name ${address}, no data node of the deployment`);
      return named;
    },
    specFor: (adapter) => ({
      adapter,
      topology: 'sentinel',
      nodes: sentinels.map((sentinel) => sentinel.address),
      masterName: CHAOS_MASTER_NAME,
    }),
  };
}

async function knowsEveryone(sentinel: ChaosRedis): Promise<boolean> {
  const [replicas, others] = await Promise.all([
    sentinel.command(['SENTINEL', 'REPLICAS', CHAOS_MASTER_NAME]),
    sentinel.command(['SENTINEL', 'SENTINELS', CHAOS_MASTER_NAME]),
  ]);
  return Array.isArray(replicas) && replicas.length === 2 && Array.isArray(others) && others.length === 2;
}

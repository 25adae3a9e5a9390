import type { ChaosHost, ChaosNetwork } from './ChaosNetwork.js';
import { ChaosRedis, type ChaosRedisOptions } from './ChaosRedis.js';

/** Lock servers, a store and client hosts on one network: what a chaos hammer run needs. */
export interface ChaosDeployment {
  /** The standalone lock server, on host `master` (the first of `servers`). */
  readonly master: ChaosRedis;
  /** The lock servers: `master` alone, or RedLock's independent members (`master`, `node2`, …). */
  readonly servers: readonly ChaosRedis[];
  /** The guarded resources' server, on host `store`, which no fault touches. */
  readonly store: ChaosRedis;
  /** `client1`, `client2`, …: where the workers run. */
  readonly clients: readonly ChaosHost[];
}

/**
 * Adds the hosts of a {@link ChaosDeployment} to `network` and starts its servers (one lock server
 * unless told; the lock servers with `serverOptions`, or with what it gives the n-th, from 0: a
 * clock on some of a RedLock's members, say).
 */
export async function startChaosDeployment(
  network: ChaosNetwork,
  clientHosts: number,
  lockServers = 1,
  serverOptions: ChaosRedisOptions | ((index: number) => ChaosRedisOptions) = {},
): Promise<ChaosDeployment> {
  const optionsOf = typeof serverOptions === 'function' ? serverOptions : () => serverOptions;
  const servers: ChaosRedis[] = [];
  for (let index = 1; index <= lockServers; index++)
    servers.push(
      await ChaosRedis.start(await network.addHost(index === 1 ? 'master' : `node${index}`), optionsOf(index - 1)),
    );
  const master = servers[0] ?? fail('a deployment needs a lock server');
  const store = await ChaosRedis.start(await network.addHost('store'));
  const clients: ChaosHost[] = [];
  for (let index = 1; index <= clientHosts; index++) clients.push(await network.addHost(`client${index}`));
  return { master, servers, store, clients };
}

function fail(message: string): never {
  throw new Error(message);
}

import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
import { FAIR_LOCK, LOCK, RED_LOCK } from '@deadbolt/conformance/kinds';
import { LockClient, type LockBase } from '@deadbolt/core';
import { Semaphore } from '@deadbolt/semaphore';
import { connect, disconnect, type Address, type Connection, type DriverName } from '../drivers.js';
import type { Contender, LockSession, Mutex, RedlockSession, SessionOptions } from './Contender.js';

/** The library name of Deadbolt's contenders. */
export const DEADBOLT = 'Deadbolt';

/** Deadbolt on one connection: its lock client, and the connection it runs on. */
export interface DeadboltSession extends LockSession {
  readonly client: LockClient;
}

/** Deadbolt on `driver`, through its adapter. */
export function deadbolt(driver: DriverName): Contender {
  return {
    id: `deadbolt/${driver}`,
    library: DEADBOLT,
    driver,
    features: {
      fair: true,
      readWrite: true,
      redlock: true,
      autoExtend: true,
      semaphore: true,
    },
    settings: 'defaults: the watchdog keeps every lock (30 s lease, renewed every 10 s)',
    connect: (address, options) => connectDeadbolt(driver, address, options),
    connectRedlock: (addresses) => connectDeadboltRedlock(driver, addresses),
  };
}

/** Connects Deadbolt on `driver` to `address`; `lease` becomes the watchdog timeout. */
export async function connectDeadbolt(
  driver: DriverName,
  address: Address,
  options: SessionOptions = {},
): Promise<DeadboltSession> {
  const connection = await connect(driver, address);
  const executor = executorOn(connection);
  const client = new LockClient(executor, options.lease === undefined ? {} : { watchdogTimeout: options.lease });
  return {
    connection,
    client,
    mutex: (name) => mutexOf(LOCK.create([client], name, 'lock')),
    fairMutex: (name) => mutexOf(FAIR_LOCK.create([client], name, 'lock')),
    renewedHold: (name) => LOCK.create([client], name, 'lock').acquire(),
    semaphore: (name, limit, permits) => semaphoreOf(client, name, limit, permits),
    close: async () => {
      await client.close();
      await disconnect(connection);
    },
  };
}

/** Deadbolt's RedLock over one lock client per address, each with its defaults. */
async function connectDeadboltRedlock(driver: DriverName, addresses: readonly Address[]): Promise<RedlockSession> {
  const sessions = await Promise.all(addresses.map((address) => connectDeadbolt(driver, address)));
  return {
    connections: sessions.map((session) => session.connection),
    mutex: (name) => {
      const redLock = RED_LOCK.create(
        sessions.map((session) => session.client),
        name,
        'lock',
      );
      return { acquire: () => redLock.acquire() };
    },
    close: async () => void (await Promise.all(sessions.map((session) => session.close()))),
  };
}

/** The Deadbolt executor over a benchmark connection, through its driver's adapter. */
export function executorOn(connection: Connection) {
  if (connection.driver === 'valkey-glide')
    return valkeyGlideExecutor(connection.client, { connection: connection.connection });
  return connection.driver === 'ioredis' ? ioredisExecutor(connection.client) : nodeRedisExecutor(connection.client);
}

/** Deadbolt's `Semaphore` named `name`, its permits set to `limit` if it has none yet; each acquisition takes `permits`. */
async function semaphoreOf(client: LockClient, name: string, limit: number, permits: number): Promise<Mutex> {
  const semaphore = new Semaphore(client, name);
  await semaphore.trySetPermits(limit);
  return {
    acquire: async () => {
      const held = await semaphore.acquire(permits);
      return { release: async () => void (await held.release()) };
    },
  };
}

function mutexOf(lock: LockBase): Mutex {
  return { acquire: () => lock.acquire() };
}

import { Mutex as SemaphoreMutex, MultiSemaphore, RedlockMutex, Semaphore } from 'redis-semaphore';
import { connect, connectAll, disconnect, disconnectAll } from '../drivers.js';
import { mutexOf, type Contender } from './Contender.js';
import { PEER_SETTINGS, pinnedLibrary } from './peerSettings.js';

// Its Mutex gives up after acquireTimeout (10 s by default); Deadbolt's acquire() does not.
const WAIT = { acquireTimeout: Number.POSITIVE_INFINITY, retryInterval: PEER_SETTINGS.retryDelay } as const;

/** redis-semaphore's Mutex, RedlockMutex, Semaphore and MultiSemaphore, on ioredis (the client it supports). */
export function redisSemaphore(): Contender {
  return {
    id: 'redis-semaphore/ioredis',
    library: pinnedLibrary('redis-semaphore'),
    driver: 'ioredis',
    features: {
      fair: 'no fair lock',
      readWrite: 'no read-write lock',
      redlock: true,
      autoExtend: true,
      semaphore: true,
    },
    settings: `retries every ${PEER_SETTINGS.retryDelay} ms (its default) without limit; defaults otherwise: 10 s TTL refreshed every 8 s (a semaphore's every hold too); Semaphore for one permit, MultiSemaphore for several`,
    connect: async (address, options = {}) => {
      const connection = await connect('ioredis', address);
      const { client } = connection;
      return {
        connection,
        mutex: (name) => mutexOf(() => acquired(new SemaphoreMutex(client, name, WAIT))),
        renewedHold: async (name) => {
          const mutex = new SemaphoreMutex(client, name, {
            ...WAIT,
            ...(options.lease === undefined ? {} : { lockTimeout: options.lease }),
          });
          await mutex.acquire();
          return { release: () => mutex.release() };
        },
        // Its semaphores take their limit with every object, and need no setting up.
        semaphore: (name, limit, permits) =>
          Promise.resolve(
            mutexOf(() =>
              acquired(
                permits === 1
                  ? new Semaphore(client, name, limit, WAIT)
                  : new MultiSemaphore(client, name, limit, permits, WAIT),
              ),
            ),
          ),
        close: () => disconnect(connection),
      };
    },
    connectRedlock: async (addresses) => {
      const connections = await connectAll('ioredis', addresses);
      const clients = connections.map((connection) => connection.client);
      return {
        connections,
        mutex: (name) => mutexOf(() => acquired(new RedlockMutex(clients, name, WAIT))),
        close: () => disconnectAll(connections),
      };
    },
  };
}

// Its lock objects hold one identifier each: a fresh one per acquisition.
async function acquired(mutex: SemaphoreMutex | RedlockMutex): Promise<() => Promise<void>> {
  await mutex.acquire();
  return () => mutex.release();
}

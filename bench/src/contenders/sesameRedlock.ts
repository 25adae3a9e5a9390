import { Redlock } from '@sesamecare-oss/redlock';
import type { Redis } from 'ioredis';
import { connect, connectAll, disconnect, disconnectAll, type Address } from '../drivers.js';
import { holdWhileRunning, mutexOf, type Contender, type Mutex } from './Contender.js';
import { PEER_SETTINGS, POLLING, pinnedLibrary } from './peerSettings.js';

/** @sesamecare-oss/redlock (a TypeScript derivative of redlock 5), on ioredis. */
export function sesameRedlock(): Contender {
  return {
    id: 'sesame-redlock/ioredis',
    library: pinnedLibrary('@sesamecare-oss/redlock'),
    driver: 'ioredis',
    features: {
      fair: 'no fair lock',
      readWrite: 'no read-write lock',
      redlock: true,
      autoExtend: true,
      semaphore: 'no semaphore',
    },
    settings: `${POLLING}; auto-extension by using(), 500 ms before expiry (its default)`,
    connect: async (address, options = {}) => {
      const connection = await connect('ioredis', address);
      const redlock = redlockOver([connection.client]);
      return {
        connection,
        mutex: mutexNamed(redlock),
        renewedHold: (name) =>
          holdWhileRunning((routine) => redlock.using([name], options.lease ?? PEER_SETTINGS.ttl, routine)),
        close: () => disconnect(connection),
      };
    },
    connectRedlock: async (addresses: readonly Address[]) => {
      const connections = await connectAll('ioredis', addresses);
      const mutex = mutexNamed(redlockOver(connections.map((connection) => connection.client)));
      return { connections, mutex, close: () => disconnectAll(connections) };
    },
  };
}

function redlockOver(clients: Redis[]): Redlock {
  const redlock = new Redlock(clients, {
    retryCount: -1,
    retryDelay: PEER_SETTINGS.retryDelay,
    retryJitter: PEER_SETTINGS.retryJitter,
  });
  // It emits every lost vote (a lock held elsewhere) as 'error'; unheard, that would throw.
  redlock.on('error', () => {});
  return redlock;
}

function mutexNamed(redlock: Redlock): (name: string) => Mutex {
  return (name) =>
    mutexOf(async () => {
      const lock = await redlock.acquire([name], PEER_SETTINGS.ttl);
      return () => lock.release();
    });
}

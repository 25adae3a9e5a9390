import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { connect, connectAll, disconnect, disconnectAll, type Address } from '../drivers.js';
import { mutexOf, type Contender, type Mutex } from './Contender.js';
import { PEER_SETTINGS, POLLING, pinnedLibrary } from './peerSettings.js';

// redlock 4 ships no types; the part the benchmark calls.
interface Redlock4 {
  lock(resource: string, ttl: number): Promise<{ unlock(): Promise<void> }>;
  on(event: 'clientError', listener: (error: Error) => void): void;
}
type Redlock4Class = new (
  clients: Redis[],
  options: { retryCount: number; retryDelay: number; retryJitter: number },
) => Redlock4;
const Redlock = createRequire(import.meta.url)('redlock') as Redlock4Class;

/** redlock 4 (node-redlock), on ioredis: a single-server lock is a RedLock over one server. */
export function redlock4(): Contender {
  return {
    id: 'redlock4/ioredis',
    library: pinnedLibrary('redlock'),
    driver: 'ioredis',
    features: {
      fair: 'no fair lock',
      readWrite: 'no read-write lock',
      redlock: true,
      autoExtend: 'no automatic extension (extend() by hand)',
      semaphore: 'no semaphore',
    },
    settings: POLLING,
    connect: async (address) => {
      const connection = await connect('ioredis', address);
      const mutex = redlockOver([connection.client]);
      return { connection, mutex, close: () => disconnect(connection) };
    },
    connectRedlock: async (addresses: readonly Address[]) => {
      const connections = await connectAll('ioredis', addresses);
      const mutex = redlockOver(connections.map((connection) => connection.client));
      return { connections, mutex, close: () => disconnectAll(connections) };
    },
  };
}

function redlockOver(clients: Redis[]): (name: string) => Mutex {
  const redlock = new Redlock(clients, {
    retryCount: -1,
    retryDelay: PEER_SETTINGS.retryDelay,
    retryJitter: PEER_SETTINGS.retryJitter,
  });
  // A lost vote is reported here as well as by the rejected lock; it must not be unhandled.
  redlock.on('clientError', () => {});
  return (name) =>
    mutexOf(async () => {
      const lock = await redlock.lock(name, PEER_SETTINGS.ttl);
      return () => lock.unlock();
    });
}

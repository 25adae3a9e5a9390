import {
  createLock,
  createRedlock,
  GlideAdapter,
  IoredisAdapter,
  NodeRedisAdapter,
  type RedisAdapter,
} from 'redlock-universal';
import { connect, connectAll, disconnect, disconnectAll, type Connection, type DriverName } from '../drivers.js';
import { holdWhileRunning, type Contender, type Mutex } from './Contender.js';
import { PEER_SETTINGS, POLLING, pinnedLibrary } from './peerSettings.js';

const RETRIES = { retryAttempts: PEER_SETTINGS.retryAttempts, retryDelay: PEER_SETTINGS.retryDelay } as const;

/** redlock-universal, on any of the three drivers (its adapters cover them all, GLIDE included). */
export function redlockUniversal(driver: DriverName): Contender {
  return {
    id: `redlock-universal/${driver}`,
    library: pinnedLibrary('redlock-universal'),
    driver,
    features: {
      fair: 'no fair lock',
      readWrite: 'no read-write lock',
      redlock: true,
      autoExtend: true,
      semaphore: 'no semaphore',
    },
    settings: `${POLLING}; auto-extension by using() at 80 % of the TTL (its default)`,
    connect: async (address, options = {}) => {
      const connection = await connect(driver, address);
      const adapter = adapterOn(connection);
      return {
        connection,
        mutex: (name) => handleMutex(createLock({ adapter, key: name, ttl: PEER_SETTINGS.ttl, ...RETRIES })),
        renewedHold: (name) =>
          holdWhileRunning((routine) =>
            createLock({ adapter, key: name, ttl: options.lease ?? PEER_SETTINGS.ttl }).using(routine),
          ),
        close: () => disconnect(connection),
      };
    },
    connectRedlock: async (addresses) => {
      const connections = await connectAll(driver, addresses);
      const adapters = connections.map(adapterOn);
      return {
        connections,
        mutex: (name) => handleMutex(createRedlock({ adapters, key: name, ttl: PEER_SETTINGS.ttl, ...RETRIES })),
        close: () => disconnectAll(connections),
      };
    },
  };
}

function adapterOn(connection: Connection): RedisAdapter {
  if (connection.driver === 'valkey-glide') return new GlideAdapter(connection.client);
  return connection.driver === 'ioredis'
    ? new IoredisAdapter(connection.client)
    : new NodeRedisAdapter(connection.client);
}

// One lock object serves every task: each acquire() returns a handle with a value of its own.
function handleMutex(lock: ReturnType<typeof createLock>): Mutex {
  return {
    acquire: async () => {
      const handle = await lock.acquire();
      return { release: async () => void (await lock.release(handle)) };
    },
  };
}

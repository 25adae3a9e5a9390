import type { Redis } from 'ioredis';
import { Redisson } from 'node-redisson';
import { adopt } from '../drivers.js';
import { mutexOf, type Contender } from './Contender.js';
import { pinnedLibrary } from './peerSettings.js';

/**
 * node-redisson: Redisson's lock for Node, on the ioredis clients it opens itself (a command
 * client and a subscriber). A lock object is one owner, so each acquisition gets its own.
 */
export function nodeRedisson(): Contender {
  return {
    id: 'node-redisson/ioredis',
    library: pinnedLibrary('node-redisson'),
    driver: 'ioredis',
    features: {
      fair: 'no fair lock',
      readWrite: 'no read-write lock',
      redlock: 'no RedLock',
      autoExtend: true,
      semaphore: 'no semaphore',
    },
    settings: 'defaults: pub/sub wake-ups, watchdog 30 s lease renewed every 10 s',
    connect: async (address, options = {}) => {
      const redisson = new Redisson({
        redis: { options: { host: address.host, port: address.port } },
        ...(options.lease === undefined ? {} : { lockWatchdogTimeout: BigInt(options.lease) }),
      });
      // Its clients come from the ioredis it resolves itself: the same API as the benchmark's.
      const connection = await adopt({ driver: 'ioredis', client: redisson.redis as unknown as Redis });
      const acquire = async (name: string) => {
        const lock = redisson.getLock(name);
        await lock.lock();
        return () => lock.unlock();
      };
      return {
        connection,
        mutex: (name) => mutexOf(() => acquire(name)),
        renewedHold: async (name) => mutexOf(() => acquire(name)).acquire(),
        close: () => redisson.quit(),
      };
    },
  };
}

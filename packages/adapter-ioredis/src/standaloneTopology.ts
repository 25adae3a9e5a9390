import type { Redis } from 'ioredis';
import { IoredisLink } from './IoredisLink.js';
import { subscriberOptions } from './subscriberOptions.js';
import type { Topology } from '@deadbolt/core/adapter';

/** Every channel on one duplicate of the user's connection (standalone or Sentinel-managed). */
export function standaloneTopology(redis: Redis, subscriberName: string): Topology {
  return {
    isCluster: false,
    nodeFor: () => Promise.resolve('server'),
    open: (_address, events) =>
      Promise.resolve(new IoredisLink(redis.duplicate(subscriberOptions(subscriberName)), events)),
    refresh: () => Promise.resolve(),
    watch: () => () => undefined,
  };
}

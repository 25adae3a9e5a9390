import type { NodeRedisSentinel, NodeRedisSentinelEvent } from './clientTypes.js';
import { NodeRedisLink } from './NodeRedisLink.js';
import { subscriberOptions } from './subscriberOptions.js';
import type { Topology } from '@deadbolt/core/adapter';

/** The event a node-redis Sentinel client sends when it moved to a new master. */
const MASTER_CHANGE = 'MASTER_CHANGE';

/**
 * Every channel on one connection to the master the Sentinel client currently uses. The client's
 * own pub/sub is not used: it tells nobody when its subscriptions are back after a reconnect.
 * When the client moves to a new master (`topology-change`, `MASTER_CHANGE`) the channels move to
 * a new connection there, and the old connection is closed.
 */
export function sentinelTopology(sentinel: NodeRedisSentinel, subscriberName: string): Topology {
  return {
    isCluster: false,
    nodeFor() {
      const master = sentinel.getMasterNode();
      if (master === undefined)
        return Promise.reject(new Error('The Sentinel client knows no master yet; is it connected?'));
      return Promise.resolve(`${master.host}:${master.port}`);
    },
    // A duplicate of the client's own master connection: the same credentials, TLS and RESP, and
    // the master's address as the client reaches it (through its nodeAddressMap, if any).
    open: (_address, events) =>
      sentinel._execute(false, (master) =>
        Promise.resolve(new NodeRedisLink(master.duplicate(subscriberOptions(subscriberName)), events)),
      ),
    // The Sentinel client learns of a new master by itself and says so.
    refresh: () => Promise.resolve(),
    watch(onChange) {
      const listener = (event: NodeRedisSentinelEvent) => {
        if (event.type === MASTER_CHANGE) onChange();
      };
      sentinel.on('topology-change', listener);
      return () => sentinel.off('topology-change', listener);
    },
  };
}

import type { ProxyGroup } from '@deadbolt/test-harness';
import type { HammerFault, HammerFaultContext } from '../hammer/runHammer.js';

// Well within the hammer's 3 s watchdog lease (renewed every second): a partition this long and
// the reconnect after it must cost no holder its lock.
const PARTITION_MS = 400;
// A busy hammer sends a lock request every few milliseconds; waiting longer means it stalled.
const CUT_TIMEOUT_MS = 15_000;

/**
 * Cuts the next script call on any of the hammered locks (acquire, release, renewal, query: whichever
 * comes) after Redis ran it: its reply is swallowed and the connection dropped, so ioredis re-sends
 * it after reconnecting and node-redis fails it. Resolves once the cut is done.
 */
export const cutLockRequest: HammerFault = {
  type: 'request cut after Redis ran it',
  async inject(context) {
    const proxies = proxiesOf(context);
    // Every lock name of the run shares one hash tag, `{<label>}`, which every script call carries.
    const [name] = context.lockNames.values();
    const tag = name?.slice(0, name.indexOf('}') + 1);
    if (tag === undefined || tag === '') throw new Error('no hammered lock to cut requests of');
    const rule = proxies.cutAfterRequest({ marker: tag, commands: ['EVALSHA', 'EVAL'] });
    try {
      await rule.until((each) => each.cut === 1, `a request on ${tag} was cut`, CUT_TIMEOUT_MS);
    } finally {
      rule.cancel();
    }
  },
};

/**
 * Partitions the workers from Redis for {@link PARTITION_MS}: every connection dropped, new ones
 * refused until it heals. Resolves once healed.
 */
export const partitionProxies: HammerFault = {
  type: 'proxy partition',
  async inject(context) {
    const proxies = proxiesOf(context);
    proxies.partition({ durationMs: PARTITION_MS });
    await proxies.whenHealed();
  },
};

/** Drops every connection of the workers to Redis at once; they reconnect at once. */
export const resetProxies: HammerFault = {
  type: 'proxy connections reset',
  async inject(context) {
    const proxies = proxiesOf(context);
    if (proxies.reset() === 0) throw new Error('no connection through the proxies to reset');
  },
};

function proxiesOf(context: HammerFaultContext): ProxyGroup {
  if (context.proxies === undefined) throw new Error('this fault needs a hammer run through fault proxies (HammerPlan.proxied)');
  return context.proxies;
}

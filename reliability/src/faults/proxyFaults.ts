import { waitFor, type ProxyGroup } from '@deadbolt/test-harness';
import type { HammerFault, HammerFaultContext } from '../hammer/runHammer.js';
import { LateCopy, PartitionedCut, SCRIPT_COMMANDS } from './lateCopies.js';

// Well within the hammer's 3 s watchdog lease (renewed every second): a partition this long and
// the reconnect after it must cost no holder its lock.
const PARTITION_MS = 400;
// A busy hammer sends a lock request every few milliseconds; waiting longer means it stalled.
const CUT_TIMEOUT_MS = 15_000;
// A driver reconnects within its retry delay after a partition (ioredis: at most 2 s by default;
// Valkey GLIDE backs off longer).
const RECONNECT_TIMEOUT_MS = 10_000;

/**
 * Cuts the next script call on any of the hammered locks (acquire, release, renewal, query: whichever
 * comes) after Redis ran it: its reply is swallowed and the connection dropped, so ioredis re-sends
 * it after reconnecting and node-redis fails it. Resolves once the cut is done.
 */
export const cutLockRequest: HammerFault = {
  type: 'request cut after Redis ran it',
  async inject(context) {
    const proxies = proxiesOf(context);
    const tag = hammeredTag(context);
    const rule = proxies.cutAfterRequest({ marker: tag, commands: SCRIPT_COMMANDS });
    try {
      await rule.until((each) => each.cut === 1, `a request on ${tag} was cut`, CUT_TIMEOUT_MS);
    } finally {
      rule.cancel();
    }
  },
};

/**
 * Holds a copy of the next script call on any of the hammered locks (it runs once now: its reply
 * is swallowed and the connection dropped, so ioredis re-sends it at once and node-redis and
 * GLIDE fail it), and delivers the copy on its old connection later than twice the workers'
 * `commandTimeout`: past its deadline. Resolves once the copy is held; the run goes on and the
 * copy lands in it, late (the run awaits it). Counts it, and whether Redis refused it as late.
 */
export const deliverLockRequestLate: HammerFault = {
  type: 'request held and delivered late',
  async inject(context) {
    const copy = new LateCopy(
      proxiesOf(context),
      { marker: hammeredTag(context), commands: SCRIPT_COMMANDS },
      context.commandTimeout,
    );
    const heldAt = await copy.held(CUT_TIMEOUT_MS);
    context.finishLater(
      copy.deliverLate(CUT_TIMEOUT_MS, heldAt).then((delivery) => {
        context.log.recordLateDelivery(delivery);
        // A copy of a request that needs no deadline is answered (a release by hold id finds it
        // released); say which, so that a state-changing one answered late would show.
        if (delivery.refused < delivery.delivered) {
          console.log(
            `a late copy on ${context.backend.name} was answered, not refused: ${delivery.replies.join(' | ')} to ${delivery.requests.join(' | ')}`,
          );
        }
      }),
    );
  },
};

/**
 * Cuts the next script call on any of the hammered locks after Redis ran it, then refuses every
 * connection for longer than the request's deadline and its record live (3 × the workers'
 * `commandTimeout`, and a margin): ioredis re-sends the request after it reconnects, later than
 * any record of it; node-redis and GLIDE fail it. Resolves once healed (and, on ioredis, once the
 * re-send came); counts the re-sends, and keeps when the network was down (holders may lose their
 * locks then, and must be told).
 */
export const cutLockRequestThenPartitionLong: HammerFault = {
  type: 'request cut, then partitioned past its records',
  async inject(context) {
    const cut = new PartitionedCut(
      proxiesOf(context),
      { marker: hammeredTag(context), commands: SCRIPT_COMMANDS },
      context.commandTimeout,
    );
    context.log.recordLongCut(await cut.healed(context.backend.spec.adapter === 'ioredis', CUT_TIMEOUT_MS));
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

/**
 * Drops every connection of the workers to Redis at once; they reconnect at once. Waits for one
 * to be open first: after a long partition a driver may still be waiting to reconnect.
 */
export const resetProxies: HammerFault = {
  type: 'proxy connections reset',
  async inject(context) {
    const proxies = proxiesOf(context);
    await waitFor(() => proxies.openConnections > 0, {
      timeoutMs: RECONNECT_TIMEOUT_MS,
      intervalMs: 5,
      description: 'a connection through the proxies',
    });
    if (proxies.reset() === 0) throw new Error('no connection through the proxies to reset');
  },
};

// Every lock name of the run shares one hash tag, `{<label>}`, which every script call carries.
function hammeredTag(context: HammerFaultContext): string {
  const [name] = context.lockNames.values();
  const tag = name?.slice(0, name.indexOf('}') + 1);
  if (tag === undefined || tag === '') throw new Error('no hammered lock to cut requests of');
  return tag;
}

function proxiesOf(context: HammerFaultContext): ProxyGroup {
  if (context.proxies === undefined)
    throw new Error('this fault needs a hammer run through fault proxies (HammerPlan.proxied)');
  return context.proxies;
}

import { parseInfo, sendCommand, type RedisAddress } from '@deadbolt/test-harness';

// The commands a client sends itself; the ones scripts run inside Redis are counted by
// commandstats too, but they cost no round trip.
const ROUND_TRIP_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'subscribe', 'unsubscribe', 'ssubscribe', 'sunsubscribe']);

/** Round trips the server has served: script calls and (un)subscriptions, from `INFO commandstats`. */
export async function roundTripsServed(address: RedisAddress): Promise<number> {
  const info = parseInfo(await sendCommand(address, ['INFO', 'commandstats']));
  let total = 0;
  for (const [field, value] of info) {
    if (ROUND_TRIP_COMMANDS.has(field.replace(/^cmdstat_/, ''))) total += Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
  }
  return total;
}

/** How many connections are subscribed to `channel`. */
export async function subscribers(address: RedisAddress, channel: string): Promise<number> {
  const reply = await sendCommand(address, ['PUBSUB', 'NUMSUB', channel]);
  return Array.isArray(reply) ? Number(reply[1]) : 0;
}

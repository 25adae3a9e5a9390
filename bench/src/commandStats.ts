import { parseInfo, sendCommand, type RedisAddress } from '@deadbolt/test-harness';

// The commands a client sends itself; the ones scripts run inside Redis are counted by
// commandstats too, but they cost no round trip.
const ROUND_TRIP_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'subscribe', 'unsubscribe', 'ssubscribe', 'sunsubscribe']);
// The commands the benchmark itself sends to watch the server.
const OBSERVER_COMMANDS = new Set(['info', 'pubsub|channels', 'pubsub|numsub', 'pubsub|shardchannels', 'pubsub|shardnumsub']);

/** Round trips the server has served: script calls and (un)subscriptions, from `INFO commandstats`. */
export function roundTripsServed(address: RedisAddress): Promise<number> {
  return commandsServed(address, (command) => ROUND_TRIP_COMMANDS.has(command));
}

/**
 * Every command the server has executed but the benchmark's own observation, including the ones
 * scripts run inside Redis: the server's work, where round trips count the client's.
 */
export function allCommandsServed(address: RedisAddress): Promise<number> {
  return commandsServed(address, (command) => !OBSERVER_COMMANDS.has(command));
}

async function commandsServed(address: RedisAddress, counts: (command: string) => boolean): Promise<number> {
  const info = parseInfo(await sendCommand(address, ['INFO', 'commandstats']));
  let total = 0;
  for (const [field, value] of info) {
    if (counts(field.replace(/^cmdstat_/, ''))) total += Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
  }
  return total;
}

/** How many subscriptions the server has to channels whose names start with `prefix`. */
export async function subscriptions(address: RedisAddress, prefix: string): Promise<number> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const channels = await sendCommand(address, ['PUBSUB', 'CHANNELS', pattern]);
  if (!Array.isArray(channels) || channels.length === 0) return 0;
  const counts = await sendCommand(address, ['PUBSUB', 'NUMSUB', ...channels.map(String)]);
  let total = 0;
  if (Array.isArray(counts)) for (let i = 1; i < counts.length; i += 2) total += Number(counts[i]);
  return total;
}

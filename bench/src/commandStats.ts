import { parseInfo, sendCommand, type RedisAddress } from '@deadbolt/test-harness';

// The commands the benchmark itself sends to watch the server.
const OBSERVER_COMMANDS = new Set([
  'info',
  'dbsize',
  'flushall',
  'pubsub|channels',
  'pubsub|numsub',
  'pubsub|shardchannels',
  'pubsub|shardnumsub',
]);
// Subscription commands: a client's own round trips, never run by a script.
const SUBSCRIPTION_COMMANDS = new Set([
  'subscribe',
  'unsubscribe',
  'ssubscribe',
  'sunsubscribe',
  'psubscribe',
  'punsubscribe',
]);
// Script calls: always a client's own round trip.
const SCRIPT_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);
// The commands that set a key's time to live: what a lock renewal does, whoever's script runs it.
const TTL_COMMANDS = new Set(['pexpire', 'expire', 'pexpireat', 'set', 'psetex']);

/** What the server has done so far, from `INFO commandstats` and `INFO cpu`. */
export interface ServerCounters {
  /** Every command executed but the benchmark's own observation, script-run ones included. */
  readonly commands: number;
  /** (Un)subscriptions: round trips no client-side counter sees on the libraries' own subscriber connections. */
  readonly subscriptionCommands: number;
  /**
   * Script calls (EVAL, EVALSHA and the like) that ran: a first EVALSHA that Redis answered
   * NOSCRIPT (counted as failed) is a one-time cost, left out.
   */
  readonly scriptCalls: number;
  /** Commands that set a time to live (PEXPIRE, SET ... PX and the like). */
  readonly ttlCommands: number;
  /** The server process's CPU time, user + system, in milliseconds. */
  readonly cpuMs: number;
  /** Every command counted in `commands`, by name (`evalsha`, `time`, `hincrby`, …). */
  readonly byCommand: Readonly<Record<string, number>>;
}

/** Reads the server's counters. */
export async function serverCounters(address: RedisAddress): Promise<ServerCounters> {
  const stats = parseInfo(await sendCommand(address, ['INFO', 'commandstats']));
  const cpu = parseInfo(await sendCommand(address, ['INFO', 'cpu']));
  let commands = 0;
  let subscriptionCommands = 0;
  let scriptCalls = 0;
  let ttlCommands = 0;
  const byCommand: Record<string, number> = {};
  for (const [field, value] of stats) {
    const command = field.replace(/^cmdstat_/, '');
    const calls = Number(/calls=(\d+)/.exec(value)?.[1] ?? 0);
    if (!OBSERVER_COMMANDS.has(command)) {
      commands += calls;
      byCommand[command] = calls;
    }
    if (SUBSCRIPTION_COMMANDS.has(command)) subscriptionCommands += calls;
    if (SCRIPT_COMMANDS.has(command)) scriptCalls += calls - Number(/failed_calls=(\d+)/.exec(value)?.[1] ?? 0);
    if (TTL_COMMANDS.has(command)) ttlCommands += calls;
  }
  const cpuMs = (Number(cpu.get('used_cpu_user') ?? 0) + Number(cpu.get('used_cpu_sys') ?? 0)) * 1000;
  return { commands, subscriptionCommands, scriptCalls, ttlCommands, cpuMs, byCommand };
}

/** `after - before`, field by field. */
export function counterDelta(before: ServerCounters, after: ServerCounters): ServerCounters {
  return {
    commands: after.commands - before.commands,
    subscriptionCommands: after.subscriptionCommands - before.subscriptionCommands,
    scriptCalls: after.scriptCalls - before.scriptCalls,
    ttlCommands: after.ttlCommands - before.ttlCommands,
    cpuMs: after.cpuMs - before.cpuMs,
    byCommand: sumByCommand([after.byCommand, negated(before.byCommand)]),
  };
}

/** The commands by name of several counts added up; names whose sum is 0 are left out. */
export function sumByCommand(counts: readonly Readonly<Record<string, number>>[]): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const count of counts)
    for (const [command, calls] of Object.entries(count)) sum[command] = (sum[command] ?? 0) + calls;
  return Object.fromEntries(Object.entries(sum).filter(([, calls]) => calls !== 0));
}

function negated(count: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(count).map(([command, calls]) => [command, -calls]));
}

/** How many subscriptions the server has, over every channel. */
export async function subscriptions(address: RedisAddress): Promise<number> {
  const channels = await sendCommand(address, ['PUBSUB', 'CHANNELS', '*']);
  if (!Array.isArray(channels) || channels.length === 0) return 0;
  const counts = await sendCommand(address, ['PUBSUB', 'NUMSUB', ...channels.map(String)]);
  let total = 0;
  if (Array.isArray(counts)) for (let i = 1; i < counts.length; i += 2) total += Number(counts[i]);
  return total;
}

/** Empties the benchmark's own server between runs that count keys. */
export async function flushServer(address: RedisAddress): Promise<void> {
  await sendCommand(address, ['FLUSHALL']);
}

/** How many keys the server holds. */
export async function keyCount(address: RedisAddress): Promise<number> {
  return Number(await sendCommand(address, ['DBSIZE']));
}

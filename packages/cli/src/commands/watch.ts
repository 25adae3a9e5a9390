import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandSyntax } from '../commandSyntax.js';
import type { Connection } from '../connection.js';
import { inspectLock } from '../inspect.js';
import { writeJson, type CommandIo } from '../io.js';
import type { LockInfo } from '../LockInfo.js';
import { renderLock } from '../views.js';
import { describeLockEvent, lockEvents, type LockEvent } from '../watchEvents.js';

/** `deadbolt watch`: how often to look, and how many times. */
export const WATCH_SYNTAX = {
  name: 'watch',
  usage: 'watch <name>',
  summary:
    'the lock, redrawn every --interval ms with what changed (acquired, released, handed off, waiters joining and leaving) until Ctrl-C; with --json, one JSON object per look and line: its schemaVersion (1), the lock, and the changes as events with a type',
  options: {
    interval: { type: 'string', default: '500', label: '--interval <ms>', description: 'between looks (default 500)' },
    count: { type: 'string', label: '--count <n>', description: 'stop after n looks (default: until Ctrl-C)' },
  },
} as const satisfies CommandSyntax;

/** Options of `deadbolt watch`. */
export interface WatchOptions {
  readonly name: string;
  readonly json: boolean;
  /** Between looks, in ms. */
  readonly interval: number;
  /** How many looks before it stops by itself; `Infinity` until interrupted. */
  readonly count: number;
}

/** The version of the `--json` record: raised when a field changes meaning or goes away. */
export const WATCH_SCHEMA_VERSION = 1;

/**
 * One look of `deadbolt watch --json`, written as one line. Fields may be added within a schema
 * version; none changes meaning or goes away without a new one.
 */
export interface WatchLook {
  /** The format's version, 1 today, so that a consumer can refuse a format it does not know. */
  readonly schemaVersion: typeof WATCH_SCHEMA_VERSION;
  /** When the look was taken, epoch ms. */
  readonly at: number;
  /** The lock's name, as given. */
  readonly name: string;
  /** The lock; `null` when it is free and nobody waits. */
  readonly lock: LockInfo | null;
  /** What changed since the previous look (none on the first). */
  readonly events: readonly LockEvent[];
}

// Clears a terminal and puts the cursor home, so each look redraws in place.
const CLEAR = '\x1b[2J\x1b[H';
// How many of the latest changes a terminal keeps showing.
const RECENT_EVENTS = 10;

/**
 * `deadbolt watch <name>`: looks at the lock every `interval` ms and shows it with what changed
 * since the last look (acquired, released, handed off, waiters joining and leaving), until
 * interrupted or `count` looks. On a terminal each look redraws the screen; elsewhere looks are
 * appended, and `--json` writes one JSON object per look and line.
 */
export async function watchCommand(connection: Connection, io: CommandIo, options: WatchOptions): Promise<void> {
  let previous: LockInfo | null = null;
  // A redrawn screen would wipe a hand-off after one look: the latest changes stay on it.
  const recent: string[] = [];
  for (let look = 1; look <= options.count && !io.signal.aborted; look++) {
    const lock = await inspectLock(connection, options.name);
    const events = look === 1 ? [] : lockEvents(previous, lock);
    previous = lock;
    const time = new Date(io.now()).toISOString().slice(11, 23);
    recent.push(...events.map((event) => `${time}  ${describeLockEvent(event)}`));
    recent.splice(0, Math.max(0, recent.length - RECENT_EVENTS));
    writeLook(io, options, lock, io.isTty ? recent : recent.slice(recent.length - events.length), events);
    if (look < options.count) await sleep(options.interval, undefined, { signal: io.signal }).catch(() => undefined);
  }
}

function writeLook(
  io: CommandIo,
  options: WatchOptions,
  lock: LockInfo | null,
  shown: readonly string[],
  events: readonly LockEvent[],
): void {
  const at = io.now();
  if (options.json) {
    const record: WatchLook = { schemaVersion: WATCH_SCHEMA_VERSION, at, name: options.name, lock, events };
    writeJson(io, record);
    return;
  }
  const body = lock === null ? `lock     ${options.name}\nstate    free, nobody waits` : renderLock(lock, at);
  const changes = shown.length === 0 ? '' : `\n\nchanges\n${shown.map((event) => `  ${event}`).join('\n')}`;
  const header = `${new Date(at).toISOString()}  every ${options.interval}ms, Ctrl-C to stop`;
  io.write(`${io.isTty ? CLEAR : '\n'}${header}\n${body}${changes}\n`);
}

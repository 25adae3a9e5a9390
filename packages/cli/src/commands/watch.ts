import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandSyntax } from '../commandSyntax.js';
import type { Connection } from '../connection.js';
import { inspectLock } from '../inspect.js';
import { writeJson, type CommandIo } from '../io.js';
import type { LockInfo } from '../LockInfo.js';
import { renderLock } from '../views.js';
import { lockEvents } from '../watchEvents.js';

/** `deadbolt watch`: how often to look, and how many times. */
export const WATCH_SYNTAX = {
  name: 'watch',
  usage: 'watch <name>',
  summary:
    'the lock, redrawn every --interval ms with what changed (acquired, released, handed off, waiters joining and leaving) until Ctrl-C; with --json, one JSON object per look and line',
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
    recent.push(...events.map((event) => `${time}  ${event}`));
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
  events: readonly string[],
): void {
  const at = io.now();
  if (options.json) {
    writeJson(io, { at, name: options.name, lock, events });
    return;
  }
  const body = lock === null ? `lock     ${options.name}\nstate    free, nobody waits` : renderLock(lock, at);
  const changes = shown.length === 0 ? '' : `\n\nchanges\n${shown.map((event) => `  ${event}`).join('\n')}`;
  const header = `${new Date(at).toISOString()}  every ${options.interval}ms, Ctrl-C to stop`;
  io.write(`${io.isTty ? CLEAR : '\n'}${header}\n${body}${changes}\n`);
}

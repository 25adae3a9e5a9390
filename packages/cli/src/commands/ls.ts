import type { CommandSyntax } from '../commandSyntax.js';
import type { Connection } from '../connection.js';
import { listLocks } from '../inspect.js';
import { writeJson, type CommandIo } from '../io.js';
import { renderLockList } from '../views.js';

/** `deadbolt ls`: no options of its own. */
export const LS_SYNTAX = {
  name: 'ls',
  usage: 'ls [pattern]',
  summary:
    'every lock whose name matches a Redis glob (default *): kind, holders and hold counts, TTL, readers, fair-queue waiters',
  options: {},
} as const satisfies CommandSyntax;

/** `deadbolt ls [pattern]`: every lock whose name matches, as a table or a JSON array. */
export async function lsCommand(
  connection: Connection,
  io: CommandIo,
  options: { pattern: string; json: boolean },
): Promise<void> {
  const locks = await listLocks(connection, { pattern: options.pattern });
  if (options.json) writeJson(io, locks);
  else io.write(`${renderLockList(locks)}\n`);
}

import type { Connection } from '../connection.js';
import { listLocks } from '../inspect.js';
import { writeJson, type CommandIo } from '../io.js';
import { renderLockList } from '../views.js';

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

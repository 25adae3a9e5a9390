import type { CommandSyntax } from '../commandSyntax.js';
import type { Connection } from '../connection.js';
import { CliError } from '../errors.js';
import { inspectLock } from '../inspect.js';
import { writeJson, type CommandIo } from '../io.js';
import type { LockInfo } from '../LockInfo.js';
import { renderLock } from '../views.js';

/** `deadbolt show`: no options of its own. */
export const SHOW_SYNTAX = {
  name: 'show',
  usage: 'show <name>',
  summary:
    "one lock in full: holders (client id and owner id apart), each read hold's lease, the fair queue with deadlines, the fencing token",
  options: {},
} as const satisfies CommandSyntax;

/** `deadbolt show <name>`: one lock in full, as text or a JSON object. */
export async function showCommand(
  connection: Connection,
  io: CommandIo,
  options: { name: string; json: boolean },
): Promise<void> {
  const lock = await requireLock(connection, options.name);
  if (options.json) writeJson(io, lock);
  else io.write(`${renderLock(lock, io.now())}\n`);
}

/**
 * The lock named `name`, for a command about one lock.
 *
 * @throws {@link CliError} `not-found` when nobody holds it and nobody waits for it
 */
export async function requireLock(connection: Connection, name: string): Promise<LockInfo> {
  const lock = await inspectLock(connection, name);
  if (lock === null) throw new CliError('not-found', `no lock "${name}": nobody holds it and nobody waits for it`);
  return lock;
}

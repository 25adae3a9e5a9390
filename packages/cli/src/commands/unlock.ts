import type { CommandSyntax } from '../commandSyntax.js';
import type { Connection } from '../connection.js';
import { CliError } from '../errors.js';
import { formatKind, ownerLabel } from '../format.js';
import { forceUnlock } from '../forceUnlock.js';
import { writeJson, type CommandIo } from '../io.js';
import type { LockInfo } from '../LockInfo.js';
import { requireLock } from './show.js';

/** `deadbolt unlock`: the holders lose the lock, so it must be forced, and is asked about. */
export const UNLOCK_SYNTAX = {
  name: 'unlock',
  usage: 'unlock <name> --force',
  summary:
    'deletes the lock, held by whoever it shows, and wakes its waiters as a release of its kind does; asks first on a terminal (--yes skips the question). Only the holds it read are freed: if the lock changed meanwhile, nothing is deleted (exit 1; run again)',
  options: {
    force: { type: 'boolean', default: false, label: '--force', description: 'required' },
    yes: { type: 'boolean', short: 'y', default: false, label: '--yes, -y', description: 'do not ask' },
  },
} as const satisfies CommandSyntax;

/** Options of `deadbolt unlock`. */
export interface UnlockOptions {
  readonly name: string;
  /** `--force`: required, as the holders lose the lock without being asked. */
  readonly force: boolean;
  /** `--yes`: no question asked. */
  readonly yes: boolean;
  readonly json: boolean;
}

/**
 * `deadbolt unlock <name> --force`: reads the lock to learn its kind and holders, asks for
 * confirmation on a terminal naming them (unless `--yes`), then force-unlocks it through its kind's
 * own `forceUnlock()`, which wakes waiters exactly as a release does, and says whom it unlocked.
 * It frees exactly the holds it read: when the lock changed in between (released, taken by
 * someone else, re-entered), nothing is deleted and the command fails with `not-found`.
 */
export async function unlockCommand(connection: Connection, io: CommandIo, options: UnlockOptions): Promise<void> {
  if (!options.force) {
    throw new CliError(
      'usage',
      `unlock takes a lock from its holders without asking them: run it as "deadbolt unlock ${options.name} --force"`,
    );
  }
  const lock = await requireLock(connection, options.name);
  if (!lock.held)
    throw new CliError('not-found', `"${lock.name}" is not held (${describeHolders(lock)}): nothing to unlock`);
  await confirmed(io, lock, options.yes);
  if (!(await forceUnlock(connection, lock))) {
    throw new CliError('not-found', `"${lock.name}" changed since it was read: nothing deleted; run again`);
  }
  if (options.json) writeJson(io, { name: lock.name, kind: lock.kind, unlocked: true, holders: lock.holders });
  else
    io.write(
      `unlocked "${lock.name}" (${formatKind(lock)}), held by ${describeHolders(lock)}; its waiters were woken\n`,
    );
}

async function confirmed(io: CommandIo, lock: LockInfo, yes: boolean): Promise<void> {
  if (yes) return;
  if (io.confirm === undefined)
    throw new CliError('not-confirmed', 'stdin is not a terminal: add --yes to force-unlock without a question');
  const question = `Force-unlock "${lock.name}" (${formatKind(lock)}), held by ${describeHolders(lock)}? Its holders will lose it. [y/N] `;
  if (!(await io.confirm(question))) throw new CliError('not-confirmed', 'not unlocked: not confirmed');
}

function describeHolders(lock: LockInfo): string {
  if (lock.holders.length === 0) return lock.waiters.length > 0 ? `nobody; ${lock.waiters.length} waiting` : 'nobody';
  return lock.holders.map((holder) => `${holder.role} ${ownerLabel(holder)} x${holder.holds}`).join(', ');
}

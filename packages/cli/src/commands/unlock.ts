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
    'deletes the lock, held by whoever it shows, and wakes its waiters as a release of its kind does; asks first on a terminal (--yes skips the question). Only the holds it read are freed: if the lock changed meanwhile, nothing is deleted (exit 7; run again)',
  options: {
    force: { type: 'boolean', default: false, label: '--force', description: 'required, unless --dry-run' },
    yes: { type: 'boolean', short: 'y', default: false, label: '--yes, -y', description: 'do not ask' },
    'dry-run': {
      type: 'boolean',
      default: false,
      label: '--dry-run',
      description: 'say whose holds it would free, and free none (asks nothing)',
    },
  },
} as const satisfies CommandSyntax;

/** Options of `deadbolt unlock`. */
export interface UnlockOptions {
  readonly name: string;
  /** `--force`: required, as the holders lose the lock without being asked. */
  readonly force: boolean;
  /** `--yes`: no question asked. */
  readonly yes: boolean;
  /** `--dry-run`: read the lock and say what would be freed; delete nothing. */
  readonly dryRun: boolean;
  readonly json: boolean;
}

/**
 * `deadbolt unlock <name> --force`: reads the lock to learn its kind and holders, asks for
 * confirmation on a terminal naming them (unless `--yes`), then force-unlocks it through its kind's
 * own `forceUnlock()`, which wakes waiters exactly as a release does, and says whom it unlocked.
 * It frees exactly the holds it read: when the lock changed in between (released, taken by
 * someone else, re-entered), nothing is deleted and the command fails with `changed`. With
 * `dryRun` it stops after the read and says whose holds it would free.
 */
export async function unlockCommand(connection: Connection, io: CommandIo, options: UnlockOptions): Promise<void> {
  if (!options.force && !options.dryRun) {
    throw new CliError(
      'usage',
      `unlock takes a lock from its holders without asking them: run it as "deadbolt unlock ${options.name} --force"`,
    );
  }
  const lock = await requireLock(connection, options.name);
  if (!lock.held)
    throw new CliError('not-found', `"${lock.name}" is not held (${describeHolders(lock)}): nothing to unlock`);
  if (options.dryRun) {
    report(io, options, lock, false);
    return;
  }
  await confirmed(io, lock, options.yes);
  if (!(await unlockUninterrupted(connection, io, lock))) {
    throw new CliError('changed', `"${lock.name}" changed since it was read: nothing deleted; run again`);
  }
  report(io, options, lock, true);
}

function report(io: CommandIo, options: UnlockOptions, lock: LockInfo, unlocked: boolean): void {
  if (options.json) {
    const dryRun = options.dryRun ? { dryRun: true } : {};
    writeJson(io, { name: lock.name, kind: lock.kind, unlocked, ...dryRun, holders: lock.holders });
  } else if (unlocked)
    io.write(
      `unlocked "${lock.name}" (${formatKind(lock)}), held by ${describeHolders(lock)}; its waiters were woken\n`,
    );
  else
    io.write(
      `would unlock "${lock.name}" (${formatKind(lock)}), held by ${describeHolders(lock)}, and wake its waiters; nothing deleted (--dry-run)\n`,
    );
}

/**
 * The force-unlock, told apart from an interruption before it was sent: an interruption while it
 * is under way leaves its outcome unknown, which the user must be told.
 */
async function unlockUninterrupted(connection: Connection, io: CommandIo, lock: LockInfo): Promise<boolean> {
  if (io.signal.aborted) throw new CliError('interrupted', 'interrupted: nothing unlocked');
  try {
    return await forceUnlock(connection, lock);
  } catch (error) {
    if (!io.signal.aborted) throw error;
    throw new CliError(
      'interrupted',
      `interrupted while force-unlocking "${lock.name}": it may or may not be unlocked; run "deadbolt show ${lock.name}" to see`,
      { cause: error },
    );
  }
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

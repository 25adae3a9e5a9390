import { decodeDone, defineCommand, UNLOCK_MESSAGE, type LockInput } from '@deadbolt/core/kit';
import type { ReadWriteMode } from '../ReadWriteMode.js';
import { readWriteLockKeys } from '../readWriteLockKeys.js';
import { rwlockScripts } from '../rwlockScripts.js';
import { READ_UNLOCK_MESSAGE } from './readWriteMessages.js';

/** The input of {@link readWriteForceRelease}. */
export interface ReadWriteForceReleaseInput extends LockInput {
  /** Delete the lock only when it is held in this mode. */
  readonly mode: ReadWriteMode;
}

/**
 * Deletes a read-write lock held in the given mode, with its read-hold keys and markers, and wakes
 * waiters: one for a read lock, all at the end of write mode (`force-release.lua`).
 */
export const readWriteForceRelease = defineCommand<ReadWriteForceReleaseInput, boolean>({
  script: rwlockScripts.forceRelease,
  keys: ({ name }) => [name, readWriteLockKeys(name).channel],
  args: ({ mode }, { publish }) => [mode, mode === 'write' ? READ_UNLOCK_MESSAGE : UNLOCK_MESSAGE, publish],
  decode: decodeDone,
});

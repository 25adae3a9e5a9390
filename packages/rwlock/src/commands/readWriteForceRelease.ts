import {
  decodeDone,
  defineCommand,
  holderArguments,
  holdMarkersKey,
  requestRecordKey,
  UNLOCK_MESSAGE,
  type ForceReleaseInput,
} from '@deadbolt/core/kit';
import type { ReadWriteMode } from '../ReadWriteMode.js';
import { readWriteLockKeys } from '../readWriteLockKeys.js';
import { rwlockScripts } from '../rwlockScripts.js';
import { READ_UNLOCK_MESSAGE } from './readWriteMessages.js';

/** The input of {@link readWriteForceRelease}. */
export interface ReadWriteForceReleaseInput extends ForceReleaseInput {
  /** Delete the lock only when it is held in this mode. */
  readonly mode: ReadWriteMode;
}

/**
 * Deletes a read-write lock held in the given mode, with its read-hold keys and markers, if its
 * hash is still as read, and wakes waiters: one for a read lock, all at the end of write mode
 * (`force-release.lua`). `true` when it was deleted. Once per request, never past its deadline.
 */
export const readWriteForceRelease = defineCommand<ReadWriteForceReleaseInput, boolean>({
  script: rwlockScripts.forceRelease,
  keys: ({ name, request }) => [
    name,
    readWriteLockKeys(name).channel,
    holdMarkersKey(name),
    requestRecordKey(name, request),
  ],
  args: ({ mode, holders }, { publish, deadline, recordTtl }) => [
    mode,
    mode === 'write' ? READ_UNLOCK_MESSAGE : UNLOCK_MESSAGE,
    publish,
    deadline,
    recordTtl,
    ...holderArguments(holders),
  ],
  decode: decodeDone,
});

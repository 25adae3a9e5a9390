import {
  decodeRelease,
  defineCommand,
  holdMarkersKey,
  UNLOCK_MESSAGE,
  requestRecordKey,
  type Command,
  type HoldInput,
  type ReleaseReply,
  type Script,
} from '@deadbolt/core/kit';
import { readWriteLockKeys } from '../readWriteLockKeys.js';
import { rwlockScripts } from '../rwlockScripts.js';
import { READ_UNLOCK_MESSAGE } from './readWriteMessages.js';

// Both release scripts take the same KEYS and ARGV; they differ in what freeing publishes.
function releaseCommand(script: Script, freedMessage: number): Command<HoldInput, ReleaseReply> {
  return defineCommand<HoldInput, ReleaseReply>({
    script,
    keys: ({ name, hold }) => [
      name,
      readWriteLockKeys(name).channel,
      requestRecordKey(name, hold),
      holdMarkersKey(name),
    ],
    args: ({ hold, field }, { publish, recordTtl }) => [freedMessage, hold, field, publish, recordTtl],
    decode: decodeRelease,
  });
}

/** Releases one read hold (`field`: the reader field); freeing the lock wakes one waiter (`read-release.lua`). */
export const readRelease = releaseCommand(rwlockScripts.readRelease, UNLOCK_MESSAGE);

/** Releases one write hold (`field`: the writer field); ending write mode wakes every waiter (`write-release.lua`). */
export const writeRelease = releaseCommand(rwlockScripts.writeRelease, READ_UNLOCK_MESSAGE);

import {
  decodeHandOff,
  defineCommand,
  holdMarkersKey,
  requestRecordKey,
  type HandOffInput,
  type HandOffReply,
} from '@deadbolt/core/kit';
import { readWriteLockKeys } from '../readWriteLockKeys.js';
import { rwlockScripts } from '../rwlockScripts.js';
import { READ_UNLOCK_MESSAGE } from './readWriteMessages.js';

/**
 * Releases one write hold and, when it was its owner's last, passes the write lock to a local
 * waiting writer in the same step (`write-handoff.lua`). The input's fields are owner fields, as
 * for every kind's hand-off; the script gets their writer fields. An owner that keeps read holds
 * downgrades the lock instead and wakes every waiter: `released`, nothing passed; so does a
 * receiver that gave its hold back before the hand-off arrived (the lock is freed).
 */
export const writeHandOff = defineCommand<HandOffInput, HandOffReply<null>>({
  script: rwlockScripts.writeHandOff,
  keys: ({ name, from, to }) => [
    name,
    readWriteLockKeys(name).channel,
    requestRecordKey(name, from.hold),
    holdMarkersKey(name),
    requestRecordKey(name, to.hold),
  ],
  args: ({ name, from, to, lease }, { publish, recordTtl, deadline }) => {
    const { writerField } = readWriteLockKeys(name);
    return [
      READ_UNLOCK_MESSAGE,
      from.hold,
      writerField(from.field),
      publish,
      recordTtl,
      writerField(to.field),
      to.hold,
      lease,
      deadline,
    ];
  },
  decode: decodeHandOff,
});

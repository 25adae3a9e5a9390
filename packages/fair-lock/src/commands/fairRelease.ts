import {
  decodeRelease,
  defineCommand,
  holdMarkersKey,
  UNLOCK_MESSAGE,
  requestRecordKey,
  type ReleaseReply,
} from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** The input of {@link fairRelease}. */
export interface FairReleaseInput extends FairLockInput {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** The hold id of the acquisition being released. */
  readonly hold: string;
}

/** Releases one hold of a fair lock; the last wakes the waiter at the head of the queue (`release.lua`). */
export const fairRelease = defineCommand<FairReleaseInput, ReleaseReply>({
  script: fairScripts.release,
  keys: ({ keys, hold }) => [...queueKeys(keys), holdMarkersKey(keys.lock), requestRecordKey(keys.lock, hold)],
  args: ({ hold, field, waiterTimeout }, { publish, recordTtl, now }) => [
    UNLOCK_MESSAGE,
    hold,
    field,
    publish,
    recordTtl,
    now,
    waiterTimeout,
  ],
  decode: decodeRelease,
});

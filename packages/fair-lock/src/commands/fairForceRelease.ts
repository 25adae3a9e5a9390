import {
  decodeDone,
  defineCommand,
  holderArguments,
  holdMarkersKey,
  requestRecordKey,
  UNLOCK_MESSAGE,
  type ForceReleaseInput,
} from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** The input of {@link fairForceRelease}: the lock, the request's id, and the lock hash as read. */
export type FairForceReleaseInput = FairLockInput & Omit<ForceReleaseInput, 'name'>;

/**
 * Deletes a fair lock if its hash is still as read, and wakes the head waiter; `true` when it was
 * deleted (`force-release.lua`). Once per request, never past its deadline.
 */
export const fairForceRelease = defineCommand<FairForceReleaseInput, boolean>({
  script: fairScripts.forceRelease,
  keys: ({ keys, request }) => [...queueKeys(keys), holdMarkersKey(keys.lock), requestRecordKey(keys.lock, request)],
  args: ({ waiterTimeout, holders }, { publish, now, deadline, recordTtl }) => [
    UNLOCK_MESSAGE,
    publish,
    now,
    waiterTimeout,
    deadline,
    recordTtl,
    ...holderArguments(holders),
  ],
  decode: decodeDone,
});

import { decodeDone, defineCommand, requestRecordKey, UNLOCK_MESSAGE } from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** The input of {@link fairLeave}. */
export interface FairLeaveInput extends FairLockInput {
  /** The leaving waiter's owner field. */
  readonly field: string;
  /** Its allowance in milliseconds (see `FairAcquireInput.allowance`). */
  readonly allowance: number;
  /** This request's id, `<instance>:<n>`: its record makes a copy answer the first outcome. */
  readonly request: string;
}

/**
 * Takes a waiter that gives up out of the queue; `true` when it was in it (`leave.lua`). Once per
 * request, never past its deadline.
 */
export const fairLeave = defineCommand<FairLeaveInput, boolean>({
  script: fairScripts.leave,
  keys: ({ keys, request }) => [...queueKeys(keys), requestRecordKey(keys.lock, request)],
  args: ({ field, allowance, waiterTimeout }, { now, publish, deadline, recordTtl }) => [
    field,
    allowance,
    now,
    waiterTimeout,
    publish,
    UNLOCK_MESSAGE,
    deadline,
    recordTtl,
  ],
  decode: decodeDone,
});

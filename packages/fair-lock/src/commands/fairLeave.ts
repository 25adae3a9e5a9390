import { decodeDone, defineCommand, UNLOCK_MESSAGE } from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** The input of {@link fairLeave}. */
export interface FairLeaveInput extends FairLockInput {
  /** The leaving waiter's owner field. */
  readonly field: string;
  /** Its allowance in milliseconds (see `FairAcquireInput.allowance`). */
  readonly allowance: number;
}

/** Takes a waiter that gives up out of the queue; `true` when it was in it (`leave.lua`). */
export const fairLeave = defineCommand<FairLeaveInput, boolean>({
  script: fairScripts.leave,
  keys: ({ keys }) => queueKeys(keys),
  args: ({ field, allowance, waiterTimeout }, { now, publish }) => [field, allowance, now, waiterTimeout, publish, UNLOCK_MESSAGE],
  decode: decodeDone,
});

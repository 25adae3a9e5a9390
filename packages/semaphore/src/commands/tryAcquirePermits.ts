import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import type { PermitHoldInput, PermitsInput } from './inputs.js';

/**
 * What one attempt to take permits found: `taken`, `tooFew` (nothing changed), or `givenBack`
 * (a copy of an attempt that was given back or released: nothing taken).
 */
export type PermitAttemptReply = 'taken' | 'tooFew' | 'givenBack';

const TAKEN = 1;
const GIVEN_BACK = -1;

/** Takes `permits` at once, all or none, once per attempt and never past its deadline (`try-acquire.lua`). */
export const tryAcquirePermitsCommand = defineCommand<PermitsInput & PermitHoldInput, PermitAttemptReply>({
  script: semaphoreScripts.tryAcquire,
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ permits, hold }, { deadline }) => [permits, hold, deadline],
  decode: (reply) => {
    const code = Number(reply);
    return code === TAKEN ? 'taken' : code === GIVEN_BACK ? 'givenBack' : 'tooFew';
  },
});

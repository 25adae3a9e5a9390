import { defineCommand } from '@deadbolt/core/kit';
import { permitRequestKey } from '../semaphoreKeys.js';
import { semaphoreScripts } from '../semaphoreScripts.js';
import type { PermitsRequestInput } from './inputs.js';

/**
 * What one attempt to take permits found: `taken` (also when this request took them already),
 * `tooFew` (nothing changed), or `givenBack` (the acquisition was given back already: nothing taken).
 */
export type PermitAttemptReply = 'taken' | 'tooFew' | 'givenBack';

const TAKEN = 1;
const GIVEN_BACK = -1;

/** Takes `permits` at once, all or none, once per request id (`try-acquire.lua`). */
export const tryAcquirePermitsCommand = defineCommand<PermitsRequestInput, PermitAttemptReply>({
  script: semaphoreScripts.tryAcquire,
  keys: ({ name, request }) => [name, permitRequestKey(name, request)],
  args: ({ permits }) => [permits],
  decode: (reply) => {
    const code = Number(reply);
    return code === TAKEN ? 'taken' : code === GIVEN_BACK ? 'givenBack' : 'tooFew';
  },
});

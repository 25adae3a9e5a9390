import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedRequestKeys, type RequestInput } from './inputs.js';

/**
 * Gives back what the acquisition with request id `request` took, once, and marks it returned
 * (`return-permits.lua`): resolves how many permits went back (0 when it took none, or they
 * went back already).
 */
export const returnPermitsCommand = defineCommand<RequestInput, number>({
  script: semaphoreScripts.returnPermits,
  keys: announcedRequestKeys,
  args: (_, { publish, unlockLatchTtl }) => [publish, unlockLatchTtl],
  decode: (reply) => Number(reply),
});

import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedRequestKeys, decodePermits, type PermitsRequestInput } from './inputs.js';

/**
 * Adds `permits` (`release(n)`, or `addPermits` with any sign) once per request id and announces
 * the permits now available on the semaphore's channel (`add-permits.lua`): resolves that number.
 */
export const addPermitsCommand = defineCommand<PermitsRequestInput, number>({
  script: semaphoreScripts.addPermits,
  keys: announcedRequestKeys,
  args: ({ permits }, { publish, unlockLatchTtl }) => [permits, publish, unlockLatchTtl],
  decode: decodePermits,
});

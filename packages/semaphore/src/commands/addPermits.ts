import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, decodePermits, type PermitsInput } from './inputs.js';

/**
 * Adds `permits` (a release, or `addPermits` with any sign) and announces the permits now
 * available on the semaphore's channel (`add-permits.lua`): resolves that number.
 */
export const addPermitsCommand = defineCommand<PermitsInput, number>({
  script: semaphoreScripts.addPermits,
  keys: announcedKeys,
  args: ({ permits }, { publish }) => [permits, publish],
  decode: decodePermits,
});

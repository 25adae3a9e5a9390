import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, type PermitsInput } from './inputs.js';

/** Sets the permits when the semaphore has no key, announcing them (`try-set-permits.lua`): `true` when set. */
export const trySetPermitsCommand = defineCommand<PermitsInput, boolean>({
  script: semaphoreScripts.trySetPermits,
  keys: announcedKeys,
  args: ({ permits }, { publish }) => [permits, publish],
  decode: (reply) => Number(reply) === 1,
});

import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { decodePermits, type SemaphoreInput } from './inputs.js';

/** Reads the available permits (`available-permits.lua`); 0 when the semaphore has no key. */
export const availablePermitsCommand = defineCommand<SemaphoreInput, number>({
  script: semaphoreScripts.availablePermits,
  keys: ({ name }) => [name],
  args: () => [],
  decode: decodePermits,
});

import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { decodePermits, type SemaphoreInput } from './inputs.js';

/** Takes every available permit (`drain-permits.lua`): resolves how many there were. */
export const drainPermitsCommand = defineCommand<SemaphoreInput, number>({
  script: semaphoreScripts.drainPermits,
  keys: ({ name }) => [name],
  args: () => [],
  decode: decodePermits,
});

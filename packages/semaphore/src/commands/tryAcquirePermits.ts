import { defineCommand } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import type { PermitsInput } from './inputs.js';

/** Takes `permits` at once, all or none (`try-acquire.lua`): `true` when taken. */
export const tryAcquirePermitsCommand = defineCommand<PermitsInput, boolean>({
  script: semaphoreScripts.tryAcquire,
  keys: ({ name }) => [name],
  args: ({ permits }) => [permits],
  decode: (reply) => Number(reply) === 1,
});

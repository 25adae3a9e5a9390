import { defineCommand, holdMarkersKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import type { SemaphoreInput } from './inputs.js';

/**
 * Makes the semaphore's holds live as the semaphore does now (`sync-holds.lua`): resolves the
 * semaphore's PTTL, which the holds now share (-2 missing, -1 no TTL).
 */
export const syncHoldsCommand = defineCommand<SemaphoreInput, number>({
  script: semaphoreScripts.syncHolds,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: () => [],
  decode: (reply) => Number(reply),
});

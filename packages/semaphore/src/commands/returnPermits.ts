import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, decodePermits, type PermitHoldInput } from './inputs.js';

/**
 * Gives back what the acquisition attempt `hold` took, once, and keeps the outcome in its request
 * record (`return-permits.lua`): resolves how many permits went back (0 when it took none, or they
 * went back already).
 */
export const returnPermitsCommand = defineCommand<PermitHoldInput, number>({
  script: semaphoreScripts.returnPermits,
  keys: (input) => [...announcedKeys(input), requestRecordKey(input.name, input.hold), holdMarkersKey(input.name)],
  args: ({ hold }, { publish, recordTtl }) => [publish, hold, recordTtl],
  decode: decodePermits,
});

import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, type PermitsRequestInput } from './inputs.js';

/**
 * Sets the permits when the semaphore has no key, announcing them, once per request and never
 * past its deadline, and makes a Semaphore's holds live as the semaphore does
 * (`try-set-permits.lua`): `true` when set.
 */
export const trySetPermitsCommand = defineCommand<PermitsRequestInput, boolean>({
  script: semaphoreScripts.trySetPermits,
  keys: (input) => [...announcedKeys(input), holdMarkersKey(input.name), requestRecordKey(input.name, input.request)],
  args: ({ permits }, { publish, deadline, recordTtl }) => [permits, publish, deadline, recordTtl],
  decode: (reply) => Number(reply) === 1,
});

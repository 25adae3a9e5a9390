import { defineCommand, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, type PermitsRequestInput } from './inputs.js';

/**
 * Sets the permits when the semaphore has no key, announcing them, once per request and never
 * past its deadline (`try-set-permits.lua`): `true` when set.
 */
export const trySetPermitsCommand = defineCommand<PermitsRequestInput, boolean>({
  script: semaphoreScripts.trySetPermits,
  keys: (input) => [...announcedKeys(input), requestRecordKey(input.name, input.request)],
  args: ({ permits }, { publish, deadline, recordTtl }) => [permits, publish, deadline, recordTtl],
  decode: (reply) => Number(reply) === 1,
});

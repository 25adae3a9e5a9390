import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { decodePermits, type RequestInput } from './inputs.js';

/** Takes every available permit, once per request, never past its deadline (`drain-permits.lua`): resolves how many there were. */
export const drainPermitsCommand = defineCommand<RequestInput, number>({
  script: semaphoreScripts.drainPermits,
  keys: ({ name, request }) => [name, holdMarkersKey(name), requestRecordKey(name, request)],
  args: (_, { deadline, recordTtl }) => [deadline, recordTtl],
  decode: decodePermits,
});

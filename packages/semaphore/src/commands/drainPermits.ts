import { defineCommand } from '@deadbolt/core/kit';
import { permitRequestKey } from '../semaphoreKeys.js';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { decodePermits, type RequestInput } from './inputs.js';

/** Takes every available permit, once per request id (`drain-permits.lua`): resolves how many there were. */
export const drainPermitsCommand = defineCommand<RequestInput, number>({
  script: semaphoreScripts.drainPermits,
  keys: ({ name, request }) => [name, permitRequestKey(name, request)],
  args: (_, { unlockLatchTtl }) => [unlockLatchTtl],
  decode: decodePermits,
});

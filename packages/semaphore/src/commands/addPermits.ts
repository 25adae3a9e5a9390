import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import { announcedKeys, decodePermits, type PermitsRequestInput } from './inputs.js';

/** The input of {@link addPermitsCommand}: the permits, and what becomes of the semaphore's TTL. */
export interface AddPermitsInput extends PermitsRequestInput {
  /**
   * `keep` for `release(n)` (Redisson's INCRBY keeps the key's TTL), `clear` for `addPermits`
   * (Redisson's SET drops it).
   */
  readonly ttl: 'keep' | 'clear';
}

/**
 * Adds `permits` (`release(n)`, or `addPermits` with any sign) once per request, never past its
 * deadline, and announces the permits now available on the semaphore's channel
 * (`add-permits.lua`): resolves that number.
 */
export const addPermitsCommand = defineCommand<AddPermitsInput, number>({
  script: semaphoreScripts.addPermits,
  keys: (input) => [...announcedKeys(input), holdMarkersKey(input.name), requestRecordKey(input.name, input.request)],
  args: ({ permits, ttl }, { publish, deadline, recordTtl }) => [permits, publish, ttl, deadline, recordTtl],
  decode: decodePermits,
});

import { defineCommand, holdMarkersKey, requestRecordKey } from '@deadbolt/core/kit';
import { semaphoreScripts } from '../semaphoreScripts.js';
import type { PermitHoldInput, PermitsInput } from './inputs.js';

/**
 * What one attempt to take permits found: `taken`, `tooFew` (nothing changed), or `givenBack`
 * (a copy of an attempt that was given back or released: nothing taken).
 */
export type PermitAttemptOutcome = 'taken' | 'tooFew' | 'givenBack';

/** What one attempt to take permits found, and the semaphore's TTL, which its holds now share. */
export interface PermitAttemptReply {
  readonly outcome: PermitAttemptOutcome;
  /** The semaphore's PTTL after the attempt: -2 when it is missing, -1 when it has no TTL, else the ms it has left. */
  readonly ttl: number;
}

const TAKEN = 1;
const GIVEN_BACK = -1;
const MISSING = -2;

/** Takes `permits` at once, all or none, once per attempt and never past its deadline (`try-acquire.lua`). */
export const tryAcquirePermitsCommand = defineCommand<PermitsInput & PermitHoldInput, PermitAttemptReply>({
  script: semaphoreScripts.tryAcquire,
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ permits, hold }, { deadline }) => [permits, hold, deadline],
  decode: (reply) => {
    const [code, ttl] = Array.isArray(reply) ? (reply as unknown[]).map(Number) : [];
    return { outcome: code === TAKEN ? 'taken' : code === GIVEN_BACK ? 'givenBack' : 'tooFew', ttl: ttl ?? MISSING };
  },
});

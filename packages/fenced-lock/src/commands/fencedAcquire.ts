import {
  defineCommand,
  heldByOther,
  holdMarkersKey,
  requestRecordKey,
  type AcquireReply,
  type LeasedHoldInput,
} from '@deadbolt/core/kit';
import { fencedScripts } from '../fencedScripts.js';
import { fencingTokenKey } from '../fencingTokenKey.js';

/**
 * Takes or re-enters a fenced lock and draws its next token, the grant (`acquire.lua`): once per
 * attempt, never past its deadline; a copy draws no token.
 */
export const fencedAcquire = defineCommand<LeasedHoldInput, AcquireReply<bigint>>({
  script: fencedScripts.acquire,
  keys: ({ name, hold }) => [name, fencingTokenKey(name), holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ lease, field, hold }, { deadline }) => [lease, field, hold, deadline],
  // { token } when taken, as a decimal string (exact beyond 2^53); else the holder's PTTL.
  decode: (reply) => (Array.isArray(reply) ? { status: 'taken', grant: BigInt(String(reply[0])) } : heldByOther(reply)),
});

import { holdMarkersKey, lockChannelName, requestRecordKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { ForceReleaseInput } from './inputs.js';
import { UNLOCK_MESSAGE } from './messages.js';
import { decodeDone } from './replies.js';

/**
 * Deletes a reentrant lock if its hash is still as read, and wakes one waiter; `true` when it was
 * deleted (`lock-force-release.lua`). Once per request, never past its deadline.
 */
export const lockForceRelease = defineCommand<ForceReleaseInput, boolean>({
  script: coreScripts.forceRelease,
  keys: ({ name, request }) => [name, lockChannelName(name), holdMarkersKey(name), requestRecordKey(name, request)],
  args: ({ holders }, { publish, deadline, recordTtl }) => [
    UNLOCK_MESSAGE,
    publish,
    deadline,
    recordTtl,
    ...holderArguments(holders),
  ],
  decode: decodeDone,
});

/** A lock hash as read, as the alternating fields and values a force-release script compares (`same-holders.lua`). */
export function holderArguments(holders: Readonly<Record<string, string>>): string[] {
  return Object.entries(holders).flat();
}

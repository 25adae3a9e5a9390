import { decodeDone, defineCommand, holdMarkersKey, type LeasedHoldInput } from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/**
 * Sets a new lease on one write hold (`field`: the writer field); the owner's only write hold gets
 * exactly it, never less than its own read holds have (`write-extend.lua`).
 */
export const writeExtend = defineCommand<LeasedHoldInput, boolean>({
  script: rwlockScripts.writeExtend,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: ({ lease, field, hold }) => [lease, field, hold],
  decode: decodeDone,
});

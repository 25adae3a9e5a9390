import { decodeDone, defineCommand, holdMarkersKey, requestNumber, type ExtendInput } from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/**
 * Sets a new lease on one write hold (`field`: the writer field); the owner's only write hold gets
 * exactly it, never less than its own read holds have (`write-extend.lua`). Never past its
 * deadline; an extend of the hold sent earlier that arrives after it changes nothing.
 */
export const writeExtend = defineCommand<ExtendInput, boolean>({
  script: rwlockScripts.writeExtend,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: ({ lease, field, hold, request }, { deadline }) => [lease, field, hold, requestNumber(request), deadline],
  decode: decodeDone,
});

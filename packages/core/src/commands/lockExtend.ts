import { holdMarkersKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { ExtendInput } from './inputs.js';
import { decodeDone } from './replies.js';
import { requestNumber } from './requestNumber.js';

/** Sets a new lease on one standing hold of a reentrant lock; `false` when it does not stand (`lock-extend.lua`). */
export const lockExtend = defineCommand<ExtendInput, boolean>({
  script: coreScripts.extend,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: ({ lease, field, hold, request }, { deadline }) => [lease, field, hold, requestNumber(request), deadline],
  decode: decodeDone,
});

import { decodeDone, defineCommand, UNLOCK_MESSAGE } from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** Deletes a fair lock whoever holds it and wakes the head waiter; `true` when there was one (`force-release.lua`). */
export const fairForceRelease = defineCommand<FairLockInput, boolean>({
  script: fairScripts.forceRelease,
  keys: ({ keys }) => queueKeys(keys),
  args: ({ waiterTimeout }, { publish, now }) => [UNLOCK_MESSAGE, publish, now, waiterTimeout],
  decode: decodeDone,
});

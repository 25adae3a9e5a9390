import { decodeDone, defineCommand, holdMarkersKey, type LockInput } from '@deadbolt/core/kit';
import { spinScripts } from '../spinScripts.js';

/** Deletes a spin lock whoever holds it, announcing nothing; `true` when there was one (`force-release.lua`). */
export const spinForceRelease = defineCommand<LockInput, boolean>({
  script: spinScripts.forceRelease,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: () => [],
  decode: decodeDone,
});

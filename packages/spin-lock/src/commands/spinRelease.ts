import {
  decodeRelease,
  defineCommand,
  holdMarkersKey,
  requestRecordKey,
  type HoldInput,
  type ReleaseReply,
} from '@deadbolt/core/kit';
import { spinScripts } from '../spinScripts.js';

/** Releases one hold of a spin lock without announcing it (`release.lua`). */
export const spinRelease = defineCommand<HoldInput, ReleaseReply>({
  script: spinScripts.release,
  keys: ({ name, hold }) => [name, requestRecordKey(name, hold), holdMarkersKey(name)],
  args: ({ field, hold }, { recordTtl }) => [field, hold, recordTtl],
  decode: decodeRelease,
});

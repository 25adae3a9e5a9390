import { defineCommand, type LockInput } from '@deadbolt/core/kit';
import { fencedScripts } from '../fencedScripts.js';
import { fencingTokenKey } from '../fencingTokenKey.js';

/** Reads a fenced lock's counter: the latest token, or `null` when never taken (`token.lua`). */
export const fencedToken = defineCommand<LockInput, bigint | null>({
  script: fencedScripts.token,
  keys: ({ name }) => [fencingTokenKey(name)],
  args: () => [],
  // token.lua replies with the counter as a decimal string.
  decode: (reply) => (reply === null ? null : BigInt(reply as string)),
});

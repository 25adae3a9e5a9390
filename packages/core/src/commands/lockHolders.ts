import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { LockInput } from './inputs.js';

/** Reads a lock's hash (field -> value), for a force-unlock to compare with (`lock-holders.lua`). */
export const lockHolders = defineCommand<LockInput, Record<string, string>>({
  script: coreScripts.holders,
  keys: ({ name }) => [name],
  args: () => [],
  decode: decodeHash,
});

/** Decodes HGETALL's alternating fields and values, as a script returns them, into a record. */
export function decodeHash(reply: unknown): Record<string, string> {
  const hash: Record<string, string> = {};
  if (!Array.isArray(reply)) return hash;
  for (let i = 0; i + 1 < reply.length; i += 2) hash[String(reply[i])] = String(reply[i + 1]);
  return hash;
}

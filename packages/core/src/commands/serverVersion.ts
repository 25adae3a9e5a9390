import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';

/** A server version: its text (`7.0.15`) and its number as `REDIS_VERSION_NUM` has it (`0x07000f`). */
export interface ServerVersion {
  readonly text: string;
  readonly number: number;
}

/** `major.minor.patch` as one comparable number, as Redis's `REDIS_VERSION_NUM` packs it. */
export function versionNumber(text: string): number {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return (major << 16) | (minor << 8) | patch;
}

/** The server's version, as `server-version.lua` reports it (Valkey reports its Redis version). */
export const serverVersion = defineCommand<null, ServerVersion>({
  script: coreScripts.serverVersion,
  keys: () => [],
  args: () => [],
  decode: (reply) => ({ text: String(reply), number: versionNumber(String(reply)) }),
});

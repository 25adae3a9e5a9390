import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';

/** The server's version as `REDIS_VERSION_NUM` reports it (7.0.15 is 0x07000f); 0 before Redis 7 (`server-version.lua`). */
export const serverVersion = defineCommand<null, number>({
  script: coreScripts.serverVersion,
  keys: () => [],
  args: () => [],
  decode: (reply) => Number(reply),
});

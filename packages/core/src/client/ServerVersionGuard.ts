import { serverVersion, versionNumber, type ServerVersion } from '../commands/serverVersion.js';
import { RedisUnavailableError } from '../errors/LockError.js';
import { UnsupportedServerError } from '../errors/UnsupportedServerError.js';
import type { ScriptRunner } from '../scripts/ScriptRunner.js';

/**
 * The oldest server Deadbolt supports: Redis 7.0, the oldest the suite runs on. Older servers
 * lack what the scripts use (`SET … PXAT` needs 6.2; `redis.acl_check_cmd`, the ACL selectors and
 * sharded pub/sub need 7.0).
 */
export const MINIMUM_SERVER_VERSION = '7.0.0';

/**
 * Asks the server its version once per client, on first use, and refuses one older than
 * {@link MINIMUM_SERVER_VERSION} with {@link UnsupportedServerError}. A probe that could not
 * reach Redis is asked again next time.
 */
export class ServerVersionGuard {
  readonly #runner: ScriptRunner;
  #version: Promise<ServerVersion> | undefined;

  constructor(runner: ScriptRunner) {
    this.#runner = runner;
  }

  /** The server's version, once known to be supported. */
  version(): Promise<ServerVersion> {
    if (this.#version === undefined) {
      const probing = this.#runner
        .run(serverVersion.script, [], [])
        .then((reply) => supported(serverVersion.decode(reply)));
      this.#version = probing;
      probing.catch((error: unknown) => {
        if (error instanceof RedisUnavailableError && this.#version === probing) this.#version = undefined;
      });
    }
    return this.#version;
  }
}

function supported(version: ServerVersion): ServerVersion {
  if (version.number < versionNumber(MINIMUM_SERVER_VERSION)) {
    throw new UnsupportedServerError(version.text, MINIMUM_SERVER_VERSION);
  }
  return version;
}

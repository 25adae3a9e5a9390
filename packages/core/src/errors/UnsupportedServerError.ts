import { LockError } from './LockError.js';

/**
 * The server is older than Deadbolt supports: its scripts use commands and options the server
 * lacks (`SET … PXAT` needs Redis 6.2, the ACL checks and sharded pub/sub need 7.0), so a lock
 * could fail halfway. Every operation of the client rejects with this error; upgrade the server.
 */
export class UnsupportedServerError extends LockError {
  /** The version the server reports, e.g. `6.0.16`. */
  readonly serverVersion: string;
  /** The oldest version Deadbolt supports, e.g. `7.0.0`. */
  readonly minimumVersion: string;

  /**
   * @param serverVersion - the version the server reports
   * @param minimumVersion - the oldest version Deadbolt supports
   */
  constructor(serverVersion: string, minimumVersion: string) {
    super(`Redis ${serverVersion} is older than Deadbolt supports: it needs Redis ${minimumVersion} or later`);
    this.serverVersion = serverVersion;
    this.minimumVersion = minimumVersion;
  }
}

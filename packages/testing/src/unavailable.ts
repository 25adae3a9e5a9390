/**
 * Thrown when no Redis server can be had (no binary, no `REDIS_URL`, no container runtime). The message is the same wherever
 * it is raised, so a developer sees one explanation with every way out, not a stack of
 * spawn errors.
 */
export class RedisUnavailableError extends Error {
  constructor(what: string, detail?: string) {
    super(
      [
        `@deadbolt/testing: ${what} needs Redis, and none could be started.`,
        ...(detail === undefined ? [] : [`  (${detail})`]),
        'Get Redis one of these ways:',
        '  - install the server binary: `apt-get install redis-server` (macOS: `brew install redis`);',
        '    it is required for clusters, replication, several nodes and fault injection.',
        '    Set DEADBOLT_REDIS_BIN_DIR if redis-server and redis-cli are not on PATH.',
        '  - or set REDIS_URL=redis://host:port to run the standalone tests against a server you run;',
        '  - or start Docker (or another container runtime testcontainers supports) and standalone',
        '    servers run in a container.',
      ].join('\n'),
    );
    this.name = 'RedisUnavailableError';
  }
}

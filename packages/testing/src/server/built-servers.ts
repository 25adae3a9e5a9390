import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Names the server build to start instead of the `redis-server` on PATH, by id (`redis-8.0`,
 * `valkey-8.1`, `redis-6.0`); unset, empty or `system` means the one on PATH.
 */
export const SERVER_ENV = 'DEADBOLT_SERVER';

/** Where the server builds are: `$XDG_CACHE_HOME/deadbolt/servers` (or `~/.cache/…`) unless set. */
export const SERVERS_DIR_ENV = 'DEADBOLT_SERVERS_DIR';

/** The ids Deadbolt's `scripts/servers/build.sh` builds from Debian's source packages. */
export const SERVER_IDS: readonly string[] = ['redis-8.0', 'valkey-8.1', 'redis-6.0'];

/** One cached server build: the paths of its server and cli, and the version it reports. */
export interface ServerBuild {
  readonly id: string;
  readonly server: string;
  readonly cli: string;
  readonly version: string;
}

/**
 * Thrown when {@link SERVER_ENV} names an unknown id, or a build that is not there: a run on a
 * server it did not ask for would report results for the wrong server.
 */
export class ServerBuildError extends Error {
  constructor(message: string) {
    super(`@deadbolt/testing: ${message}`);
    this.name = 'ServerBuildError';
  }
}

/** The folder holding one subfolder per built server id. */
export function serversDir(): string {
  const set = process.env[SERVERS_DIR_ENV];
  if (set !== undefined && set !== '') return set;
  const cache = process.env['XDG_CACHE_HOME'];
  return path.join(
    cache !== undefined && cache !== '' ? cache : path.join(os.homedir(), '.cache'),
    'deadbolt',
    'servers',
  );
}

/**
 * The build {@link SERVER_ENV} names, or `undefined` when it names none (the server on PATH).
 * Read on every call: cheap, and tests may change the environment.
 */
export function selectedServerBuild(): ServerBuild | undefined {
  const id = process.env[SERVER_ENV];
  if (id === undefined || id === '' || id === 'system') return undefined;
  if (!SERVER_IDS.includes(id)) {
    throw new ServerBuildError(`${SERVER_ENV}=${id} is no server id; the ids are system, ${SERVER_IDS.join(', ')}`);
  }
  const dir = path.join(serversDir(), id);
  const build = readManifest(id, dir);
  for (const binary of [build.server, build.cli]) {
    try {
      fs.accessSync(binary, fs.constants.X_OK);
    } catch {
      throw missingBuild(id, `${binary} is missing or not executable`);
    }
  }
  return build;
}

function readManifest(id: string, dir: string): ServerBuild {
  const file = path.join(dir, 'server.json');
  let manifest: unknown;
  try {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw missingBuild(id, `cannot read ${file}: ${(error as Error).message}`);
  }
  const field = (name: string): string => {
    const value = (manifest as Record<string, unknown> | null)?.[name];
    if (typeof value !== 'string' || value === '') throw missingBuild(id, `${file} has no "${name}"`);
    return value;
  };
  return {
    id,
    server: path.join(dir, 'bin', field('server')),
    cli: path.join(dir, 'bin', field('cli')),
    version: field('version'),
  };
}

function missingBuild(id: string, detail: string): ServerBuildError {
  return new ServerBuildError(
    `${SERVER_ENV}=${id} names a server that is not built (${detail}); build it with ` +
      `\`bash scripts/bootstrap.sh --servers\` (or \`bash scripts/servers/build.sh ${id}\`), ` +
      `which puts it in ${serversDir()} (${SERVERS_DIR_ENV} moves it)`,
  );
}

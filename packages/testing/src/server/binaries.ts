import fs from 'node:fs';
import path from 'node:path';
import { RedisUnavailableError } from '../unavailable.js';
import { selectedServerBuild } from './built-servers.js';

/** Names the directory holding `redis-server` and `redis-cli` when they are not on PATH. */
export const BIN_DIR_ENV = 'DEADBOLT_REDIS_BIN_DIR';

/**
 * Finds an executable by name: the server build DEADBOLT_SERVER names (which throws when that
 * build is missing, never falling back), else in DEADBOLT_REDIS_BIN_DIR, else on PATH;
 * `undefined` when absent. Looked up on every call because it is cheap and tests may change the
 * environment.
 */
function findExecutable(name: 'redis-server' | 'redis-cli'): string | undefined {
  const build = selectedServerBuild();
  if (build !== undefined) return name === 'redis-server' ? build.server : build.cli;
  const override = process.env[BIN_DIR_ENV];
  const dirs =
    override !== undefined && override !== '' ? [override] : (process.env['PATH'] ?? '').split(path.delimiter);
  for (const dir of dirs) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}

/** True when a local `redis-server` can be spawned. */
export function hasRedisServer(): boolean {
  return findExecutable('redis-server') !== undefined;
}

/** The path of a required binary, or the one clear "how to get Redis" error ({@link RedisUnavailableError}). */
export function requireExecutable(name: 'redis-server' | 'redis-cli', what: string): string {
  const found = findExecutable(name);
  if (found === undefined) throw new RedisUnavailableError(what, `no ${name} binary found`);
  return found;
}

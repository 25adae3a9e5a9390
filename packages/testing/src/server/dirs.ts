import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Every server directory starts with this, which is how cleanup recognises what it may delete. */
const SERVER_DIR_PREFIX = 'deadbolt-redis-';

/** Directories this process made and has not removed yet; a node keeps its dir across restarts. */
const owned = new Set<string>();

/** Creates a fresh working directory for one server under the OS temp directory. */
export function makeServerDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), SERVER_DIR_PREFIX));
  owned.add(dir);
  return dir;
}

/** Deletes a server's working directory, but only one made here (a pid file could be forged or stale). */
export function removeServerDir(dir: string): void {
  if (!path.basename(dir).startsWith(SERVER_DIR_PREFIX)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  owned.delete(dir);
}

/** Removes every directory this process made and still has, for exit hooks (nodes killed but never stopped). */
export function removeOwnedDirsSync(): void {
  for (const dir of owned) removeServerDir(dir);
}

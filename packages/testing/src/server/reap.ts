import { isAlive, isRedisServerOnPort } from './liveness.js';
import { killRecordSync, readRunDir } from './registry.js';
import { removeServerDir } from './dirs.js';
import { sleep } from '../wait.js';

/** What {@link reapRunDir} found and did. */
export interface ReapResult {
  /** How many redis-server processes the run started (one pid file each, restarts included). */
  readonly started: number;
  /** How many were still running and had to be killed. */
  readonly killed: number;
  /** Pids still alive after the kill and the wait; should always be empty. */
  readonly leftRunning: readonly number[];
}

/**
 * Ends every redis-server recorded in a run directory: SIGKILL to each one still alive (after
 * checking the pid still is that server), then waits until they are gone and removes their
 * working directories. This is the logic of the vitest global teardown.
 */
export async function reapRunDir(runDir: string, timeoutMs = 5000): Promise<ReapResult> {
  const records = readRunDir(runDir);
  let killed = 0;
  for (const record of records) if (killRecordSync(record)) killed++;
  const deadline = Date.now() + timeoutMs;
  let leftRunning = records.filter((r) => isAlive(r.pid) && isRedisServerOnPort(r.pid, r.port));
  while (leftRunning.length > 0 && Date.now() < deadline) {
    await sleep(20);
    leftRunning = leftRunning.filter((r) => isAlive(r.pid));
  }
  for (const record of records) removeServerDir(record.dir);
  return { started: records.length, killed, leftRunning: leftRunning.map((r) => r.pid) };
}

/**
 * The synchronous part of {@link reapRunDir}, for signal and exit handlers that cannot wait:
 * SIGKILLs every recorded server still alive and removes their directories.
 */
export function killRunDirSync(runDir: string): void {
  const records = readRunDir(runDir);
  for (const record of records) killRecordSync(record);
  for (const record of records) removeServerDir(record.dir);
}

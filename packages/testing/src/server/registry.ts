import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { removeOwnedDirsSync } from './dirs.js';
import { isAlive, isRedisServerOnPort } from './liveness.js';

/**
 * The environment variable naming the run directory of the current test run. The vitest global
 * setup sets it before workers start, so every worker inherits it and writes its pid files
 * there; teardown kills whatever those files name.
 */
export const RUN_DIR_ENV = 'DEADBOLT_HARNESS_RUN_DIR';

/** What is remembered about one redis-server process it spawned. */
export interface ServerRecord {
  readonly pid: number;
  readonly port: number;
  /** The server's working directory (a mkdtemp directory), removed when the run ends. */
  readonly dir: string;
}

const local = new Map<number, ServerRecord>();
let hooksInstalled = false;

/**
 * Registers a freshly spawned server: in this process (so it dies with us) and, during a vitest
 * run, as a pid file in the run directory (so teardown kills it even if this worker crashed).
 */
export function recordServer(record: ServerRecord): void {
  installExitHooks();
  local.set(record.pid, record);
  const runDir = process.env[RUN_DIR_ENV];
  if (runDir !== undefined && runDir !== '') {
    try {
      // Synchronous so the file exists before anything else can go wrong.
      fs.writeFileSync(path.join(runDir, `${record.pid}.json`), JSON.stringify(record));
    } catch (error) {
      // The run dir is gone: the run ended (say on Ctrl-C) while this worker lingers on. A server
      // started now would have no one to reap it; the caller kills it on this error.
      throw new Error(
        `@deadbolt/testing: cannot record redis-server ${record.pid} in ${runDir} (${RUN_DIR_ENV}); has the test run ended?`,
        {
          cause: error,
        },
      );
    }
  }
}

/** Forgets a server this process saw exit. Its pid file stays: teardown counts it as started. */
export function forgetServer(pid: number): void {
  local.delete(pid);
}

/** Reads every record in a run directory, skipping files that are not ours or are half-written. */
export function readRunDir(runDir: string): ServerRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    return [];
  }
  const records: ServerRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const parsed = JSON.parse(fs.readFileSync(path.join(runDir, name), 'utf8')) as Partial<ServerRecord>;
      if (typeof parsed.pid === 'number' && typeof parsed.port === 'number' && typeof parsed.dir === 'string') {
        records.push({ pid: parsed.pid, port: parsed.port, dir: parsed.dir });
      }
    } catch {
      // a file being written as we read; its server is also in its worker's local registry
    }
  }
  return records;
}

/** SIGKILLs a recorded server if it is still that server; synchronous so exit handlers can use it. */
export function killRecordSync(record: ServerRecord): boolean {
  if (!isAlive(record.pid) || !isRedisServerOnPort(record.pid, record.port)) return false;
  try {
    process.kill(record.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function killLocalSync(): void {
  for (const record of local.values()) killRecordSync(record);
  local.clear();
  removeOwnedDirsSync();
}

/**
 * Exit hooks for this process's own servers: on exit they are SIGKILLed, run dir or not.
 * Signals are handled only in a plain script (no run dir) on its main thread: in a vitest run
 * the global setup in the main process owns Ctrl-C, and worker threads get no signals.
 */
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killLocalSync);
  // A vitest fork whose parent died (its IPC channel closed) may run on for a while; its
  // servers must not wait for that.
  if (process.send !== undefined) process.once('disconnect', killLocalSync);
  if (!isMainThread || process.env[RUN_DIR_ENV]) return;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      killLocalSync();
      // If we are the only listener, nobody else will end the process: restore the default
      // action and re-raise so the exit status still says "killed by <signal>".
      if (process.listenerCount(signal) === 1) {
        process.off(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

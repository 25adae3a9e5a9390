import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sendCommand } from '../resp/connection.js';
import { parseInfo } from '../resp/text.js';
import { sleep } from '../wait.js';
import { requireExecutable } from './binaries.js';
import { pickFreePort } from './ports.js';
import { forgetServer, recordServer } from './registry.js';

const READY_TIMEOUT_MS = 10_000;
const START_ATTEMPTS = 8;
/**
 * What every test server starts with: no persistence, and no wait before a diskless full sync
 * (replicas would otherwise wait 5 s for more replicas).
 */
const DEFAULT_SETTINGS: readonly (readonly [name: string, value: string])[] = [
  ['save', ''],
  ['appendonly', 'no'],
  ['repl-diskless-sync-delay', '0'],
];
const CONFIG_FILE = 'redis.conf';

/** A redis-server child process as it is tracked here. */
export interface ServerProcess {
  readonly pid: number;
  /** Resolves when the process has exited and been reaped (never rejects). */
  readonly exited: Promise<void>;
  /** True once `exited` has resolved. */
  hasExited(): boolean;
}

/** Why a start failed; `addressInUse` tells the caller that another port may work. */
class StartError extends Error {
  constructor(
    message: string,
    readonly addressInUse: boolean,
  ) {
    super(message);
    this.name = 'StartError';
  }
}

/**
 * Writes a server's config file into its directory and returns its path: the
 * {@link DEFAULT_SETTINGS}, then `text`. The defaults go in the file rather than on the command
 * line, which would override the file: so what CONFIG REWRITE records there (AOF switched on, say)
 * holds when the server starts again.
 */
export function writeConfigFile(dir: string, text: string): string {
  const file = path.join(dir, CONFIG_FILE);
  const defaults = DEFAULT_SETTINGS.map(([name, value]) => `${name} "${value}"\n`).join('');
  fs.writeFileSync(file, defaults + text);
  return file;
}

/**
 * Starts redis-server on a free port, retrying with another port when the chosen one was taken
 * in the meantime (by a parallel worker, say). `extraArgs` may not depend on the port.
 * `configFile`, when given, is passed first, as redis-server wants it (a Sentinel needs one it can
 * rewrite); it comes from {@link writeConfigFile}, which holds the default settings.
 */
export async function launchOnFreePort(
  dir: string,
  extraArgs: readonly string[],
  configFile?: string,
): Promise<{ port: number; server: ServerProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await pickFreePort();
    try {
      return { port, server: await launch(port, dir, extraArgs, configFile) };
    } catch (error) {
      if (!(error instanceof StartError && error.addressInUse) || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

/**
 * Starts redis-server on `port` (as a restart does, where the port is not negotiable),
 * retrying briefly if the port is still held, and waits until it answers.
 */
export async function launchOnPort(
  port: number,
  dir: string,
  extraArgs: readonly string[],
  configFile?: string,
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(port, dir, extraArgs, configFile);
    } catch (error) {
      if (!(error instanceof StartError && error.addressInUse) || attempt >= START_ATTEMPTS) throw error;
      await sleep(250);
    }
  }
}

async function launch(
  port: number,
  dir: string,
  extraArgs: readonly string[],
  configFile?: string,
): Promise<ServerProcess> {
  const binary = requireExecutable('redis-server', 'starting a redis-server');
  const logFile = path.join(dir, 'redis.log');
  const logOffset = fileSize(logFile);
  const args = [
    ...(configFile === undefined ? [] : [configFile]),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    ...(configFile === undefined ? DEFAULT_SETTINGS.flatMap(([name, value]) => [`--${name}`, value]) : []),
    '--daemonize',
    'no',
    '--dir',
    dir,
    '--logfile',
    logFile,
    ...extraArgs,
  ];
  // Not detached and not daemonized: the pid we get is the server's, and we can signal it.
  const child = spawn(binary, args, { cwd: dir, stdio: 'ignore' });
  // Never keep a script alive just because a server runs; exit hooks end the servers.
  child.unref();
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const pid = child.pid;
  if (pid === undefined) throw await spawnError;

  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      forgetServer(pid);
      resolve();
    });
  });
  try {
    recordServer({ pid, port, dir });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const server: ServerProcess = { pid, exited: exitedPromise, hasExited: () => exited };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!exited) {
    try {
      // Not PING: if another process won the race for the port, it would answer while ours
      // exits with "Address already in use". The pid in INFO tells whose server answers, and
      // `loading` whether it still loads its files (a restart with AOF on), refusing commands.
      const info = parseInfo(await sendCommand({ host: '127.0.0.1', port }, ['INFO'], { timeoutMs: 1000 }));
      if (info.get('process_id') === String(pid) && info.get('loading') !== '1') return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await waitForExit(server);
      throw new StartError(
        `redis-server on port ${port} did not answer PING within ${READY_TIMEOUT_MS} ms\n${readLog(logFile, logOffset)}`,
        false,
      );
    }
    await sleep(20);
  }
  const log = readLog(logFile, logOffset);
  throw new StartError(
    `redis-server on port ${port} exited during startup:\n${log}`,
    /address already in use/i.test(log),
  );
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function readLog(file: string, from: number): string {
  try {
    return fs.readFileSync(file).subarray(from).toString('utf8').trim().split('\n').slice(-15).join('\n');
  } catch {
    return '(no log written)';
  }
}

/**
 * Waits for a server process to exit. The child is unref'd, so a timer holds the event loop
 * open meanwhile; otherwise a script awaiting a kill could end before the kill completes.
 */
export async function waitForExit(server: ServerProcess): Promise<void> {
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    await server.exited;
  } finally {
    clearInterval(keepAlive);
  }
}

/** Waits up to `ms` for a server process to exit; true if it did. */
export async function exitsWithin(server: ServerProcess, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([server.exited.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

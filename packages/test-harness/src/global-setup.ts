import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  killRunDirSync,
  type ReapResult,
  reapRunDir,
  RUN_DIR_ENV,
  selectedServerBuild,
  SERVER_ENV,
} from '@deadbolt/testing/servers';

/**
 * The vitest global setup of every integration project. It runs in the main vitest process
 * before any worker starts; workers inherit the environment at spawn, so the run directory set
 * here is where every worker records the servers it starts.
 *
 * With several projects in one run each calls `setup`, in the same process, before any test,
 * and each calls `teardown` at the end; they share one run directory, which the last teardown
 * reaps. The shared state lives on `globalThis` because each project may load this module anew.
 */

interface RunState {
  readonly runDir: string;
  users: number;
  readonly detach: () => void;
}

const STATE = Symbol.for('@deadbolt/test-harness/run');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type GlobalWithRun = typeof globalThis & { [STATE]?: RunState };

/**
 * Creates the run directory (once per process) and points workers at it. Checks the server build
 * DEADBOLT_SERVER names first, so that a missing one fails the run before any test, once.
 */
export function setup(): void {
  const scope = globalThis as GlobalWithRun;
  const existing = scope[STATE];
  if (existing !== undefined) {
    existing.users++;
    return;
  }
  const build = selectedServerBuild();
  if (build !== undefined) {
    console.log(
      `test-harness: ${SERVER_ENV}=${build.id}: ${path.basename(build.server)} ${build.version} (${build.server})`,
    );
  }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-harness-run-'));
  process.env[RUN_DIR_ENV] = runDir;
  scope[STATE] = { runDir, users: 1, detach: attachInterruptHandlers(runDir) };
}

/**
 * Kills every recorded server still alive, checks none survived and prints one summary line.
 * Throws if any survived, so the run fails instead of leaking processes silently.
 */
export async function teardown(): Promise<void> {
  const scope = globalThis as GlobalWithRun;
  const state = scope[STATE];
  if (state === undefined || --state.users > 0) return;
  delete scope[STATE];
  state.detach();
  if (process.env[RUN_DIR_ENV] === state.runDir) delete process.env[RUN_DIR_ENV];
  const result = await finishRun(state.runDir);
  if (result.leftRunning.length > 0) {
    throw new Error(`test-harness: redis-server processes survived SIGKILL: ${result.leftRunning.join(', ')}`);
  }
}

/**
 * The teardown logic on its own: reaps a run directory, removes it and prints
 * `test-harness: started N redis-server processes, M left running`.
 */
async function finishRun(runDir: string): Promise<ReapResult> {
  const result = await reapRunDir(runDir);
  fs.rmSync(runDir, { recursive: true, force: true });
  const leftovers = result.killed > 0 ? ` (killed ${result.killed} that were still running at the end)` : '';
  console.log(
    `test-harness: started ${result.started} redis-server processes, ${result.leftRunning.length} left running${leftovers}`,
  );
  return result;
}

/**
 * Ctrl-C makes vitest exit at once, without teardown, so the main process kills the run's
 * servers itself on a signal or on exit. Returns a function that removes the handlers.
 */
function attachInterruptHandlers(runDir: string): () => void {
  const onExit = (): void => {
    killRunDirSync(runDir);
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    onExit();
    // Vitest has its own handler that exits; in a bare process nobody would, so re-raise.
    if (process.listenerCount(signal) === 1) {
      detach();
      process.kill(process.pid, signal);
    }
  };
  const detach = (): void => {
    process.off('exit', onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.on('exit', onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return detach;
}

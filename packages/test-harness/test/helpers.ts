import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, waitFor } from '../src/index.js';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A fixture script running in its own `node --import tsx` process. */
export interface Fixture {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line that parses as JSON. */
  readonly firstJson: Promise<unknown>;
  /** Everything the child wrote to stdout so far. */
  stdout(): string;
  /** Resolves when the child exits, with its code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `test/fixtures/<name>.ts` with the given environment (merged over this process's). */
export function runFixture(name: string, env: Record<string, string | undefined>): Fixture {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(packageDir, 'test', 'fixtures', `${name}.ts`)], {
    cwd: packageDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const firstJson = new Promise<unknown>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n')) {
        if (line.startsWith('{')) {
          try {
            resolve(JSON.parse(line));
          } catch {
            // line not complete yet
          }
        }
      }
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`fixture ${name} exited (${code ?? signal}) before printing JSON:\n${out}\n${err}`)),
    );
  });
  return { child, firstJson, stdout: () => out, exited };
}

/** Waits until none of the pids is alive (a zombie counts as gone). */
export function waitUntilGone(pids: readonly number[], timeoutMs = 5000): Promise<void> {
  return waitFor(() => pids.every((pid) => !isAlive(pid)), {
    timeoutMs,
    intervalMs: 20,
    description: `pids ${pids.join(', ')} are gone`,
  });
}

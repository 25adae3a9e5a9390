import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Backend } from '@deadbolt/conformance';
import { runCli } from '../src/index.js';

/** What a run of the command printed and how it exited. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The URL of a backend's (first) server: the seed of a cluster. */
export function urlOf(backend: Backend): string {
  const [node] = backend.spec.nodes;
  if (node === undefined) throw new Error(`${backend.name} has no node`);
  return `redis://${node.host}:${node.port}`;
}

/**
 * Runs the command in this process, as the bin does but with buffers for streams (fast);
 * `onWrite` sees each write to stdout as it comes.
 */
export async function runInProcess(
  argv: readonly string[],
  options: {
    signal?: AbortSignal;
    confirm?: (question: string) => Promise<boolean>;
    onWrite?: (text: string) => void;
  } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    write: (text: string) => {
      stdout += text;
      options.onWrite?.(text);
    },
    isTty: false,
    confirm: options.confirm,
    signal: options.signal ?? new AbortController().signal,
    now: () => Date.now(),
  };
  const code = await runCli(argv, io, (line) => void (stderr += `${line}\n`));
  return { code, stdout, stderr };
}

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** Runs the built `deadbolt` bin as a child process, as a user would (stdin is not a terminal). */
export async function runBin(argv: readonly string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...argv], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Parses a run's stdout as JSON, failing with what it printed instead. */
export function jsonOf<T>(result: CliRun): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

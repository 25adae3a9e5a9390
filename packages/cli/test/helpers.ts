import { execFile, spawn, type ChildProcess } from 'node:child_process';
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

// The child's environment: this one's, without the variables the command reads unless a test sets them.
function binEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  delete inherited.REDIS_URL;
  delete inherited.DEADBOLT_PASSWORD;
  return { ...inherited, ...env };
}

/**
 * Runs the built `deadbolt` bin as a child process, as a user would (stdin is not a terminal),
 * with `env` added to the environment.
 */
export async function runBin(argv: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...argv], { timeout: 20_000, env: binEnv(env) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A `deadbolt` bin running as a child process: what it printed so far, and how it ends. */
export interface RunningBin {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** The run once the process exits (its signal, if one ended it, as code -1). */
  readonly exited: Promise<CliRun>;
}

/** Starts the built bin as a child process, for a test that signals it while it runs. */
export function startBin(argv: readonly string[]): RunningBin {
  const child = spawn(process.execPath, [BIN, ...argv], { env: binEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
  return { child, stdout: () => stdout, exited };
}

/** A `deadbolt` bin running at a terminal: keys typed at it, and what the terminal showed. */
export interface BinAtTerminal extends RunningBin {
  /** Types `keys` at the terminal, as a user would (`\x03` is Ctrl-C). */
  type(keys: string): void;
}

/**
 * Starts the built bin at a terminal of its own, a pseudo-terminal `script` (util-linux) opens:
 * its stdin and stdout are a TTY, and Ctrl-C typed at it goes through the terminal as it does for
 * a user (a signal from the terminal, or a key to a prompt in raw mode). What the terminal showed,
 * stderr included, is the run's stdout; its exit code is the bin's.
 */
export function startAtTerminal(argv: readonly string[]): BinAtTerminal {
  const command = [process.execPath, BIN, ...argv].map(shellQuoted).join(' ');
  const child = spawn('script', ['--quiet', '--flush', '--return', '--command', command, '/dev/null'], {
    env: binEnv({}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let shown = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: shown, stderr })),
  );
  return { child, stdout: () => shown, exited, type: (keys) => child.stdin.write(keys) };
}

function shellQuoted(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** Parses a run's stdout as JSON, failing with what it printed instead. */
export function jsonOf<T>(result: CliRun): T {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

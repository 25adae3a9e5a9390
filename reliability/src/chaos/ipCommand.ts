import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs `ip` with `args` (iproute2); rejects with its stderr when it fails. */
export async function ip(...args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run('ip', [...args]);
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`ip ${args.join(' ')} failed: ${stderr.trim() || String(error)}`, { cause: error });
  }
}

/** The same, synchronously and ignoring failure: for the exit hook, where nothing can be awaited. */
export function ipQuietlySync(...args: readonly string[]): void {
  try {
    execFileSync('ip', [...args], { stdio: 'ignore' });
  } catch {
    // already gone
  }
}

/** The names of every network namespace on the machine (`ip netns list`). */
export async function namespaceNames(): Promise<string[]> {
  const listed = await ip('netns', 'list');
  return listed
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name !== '');
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * True when `pid` is a running (or stopped) process. A zombie counts as dead: it has exited
 * and only waits for its parent to collect it, which may be a reaper that never comes.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return processState(pid) !== 'Z';
}

/** The one-letter state from /proc (R, S, T, Z, ...), or undefined where there is no /proc. */
export function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may itself contain spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ', 1)[0];
  } catch {
    return undefined;
  }
}

/**
 * Guards against pid reuse before a kill: true only if `pid` is a redis-server (or a
 * valkey-server) for `port`. Once running, the server rewrites its title to
 * `redis-server 127.0.0.1:<port>`; until then its command line still has our `--port <port>`.
 */
export function isRedisServerOnPort(pid: number, port: number): boolean {
  const title = commandLine(pid);
  return (
    title !== undefined && /(redis|valkey)-server/.test(title) && new RegExp(`(:|--port )${port}(\\D|$)`).test(title)
  );
}

function commandLine(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    // No /proc (macOS): ask ps, which prints nothing and fails for a missing pid.
    try {
      return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    } catch {
      return undefined;
    }
  }
}

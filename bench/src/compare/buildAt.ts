import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BUILT_PACKAGES = ['@deadbolt/core', '@deadbolt/adapter-ioredis', '@deadbolt/adapter-node-redis'];

function run(command: string, args: readonly string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** The commit `ref` names in the repository at `repository`. */
export function commitOf(repository: string, ref: string): string {
  return run('git', ['rev-parse', '--verify', `${ref}^{commit}`], repository);
}

/** HEAD's commit, and whether tracked files have changed since. */
export function describeHead(repository: string): string {
  const changed = run('git', ['status', '--porcelain', '--untracked-files=no'], repository) !== '';
  return `${commitOf(repository, 'HEAD')}${changed ? ' with uncommitted changes' : ''}`;
}

/**
 * A checkout of `commit` with core and both adapters built, in a folder of the system's temporary
 * directory that later comparisons against the same commit reuse: the files from `git archive`,
 * the dependencies from its own lockfile.
 */
export function buildAt(repository: string, commit: string): string {
  const checkout = join(tmpdir(), 'deadbolt-compare', commit);
  if (existsSync(join(checkout, 'packages/adapter-node-redis/dist/index.js'))) return checkout;
  mkdirSync(checkout, { recursive: true });
  console.log(`compare: building ${commit} in ${checkout}`);
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C '${checkout}'`], { cwd: repository, stdio: 'inherit' });
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], checkout);
  run('pnpm', [...BUILT_PACKAGES.flatMap((name) => ['--filter', name]), 'run', 'build'], checkout);
  return checkout;
}

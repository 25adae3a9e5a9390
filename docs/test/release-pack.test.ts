import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

// `pnpm run release:pack` (scripts/release-pack.mts), the way to use the packages while they are
// not on the registry: it writes one checked tarball per published package, and the first install
// command of the getting started guide and of the operations guide, run with those tarballs,
// installs packages that load and a `deadbolt` command that runs.
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

const published = readdirSync(join(root, 'packages'))
  .map(
    (name) =>
      JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        private?: boolean;
      },
  )
  .filter((manifest) => !manifest.private);
/** The file name `pnpm pack` gives a package's tarball. */
const tarballOf = ({ name, version }: { name: string; version: string }) =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

let work: string;
let stdout: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'deadbolt-release-pack-'));
  ({ stdout } = await run(
    process.execPath,
    ['--import', require.resolve('tsx'), 'scripts/release-pack.mts', join(work, 'tarballs')],
    { cwd: root, timeout: 60_000 },
  ));
}, 70_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('writes one tarball per published package', () => {
  expect(readdirSync(join(work, 'tarballs')).sort()).toEqual(published.map(tarballOf).sort());
  expect(stdout).toContain(`release-pack: ${published.length} tarballs in ${join(work, 'tarballs')}`);
});

it("the getting started guide's first install command installs packages that load", async () => {
  const guide = readFileSync(join(root, 'docs/guides/getting-started.md'), 'utf8');
  const command = /^npm install (~\/deadbolt\/tarballs\/\S+\.tgz ?)+ ?\S*$/m.exec(guide)?.[0];
  expect(command).toBeDefined();
  const args = (command ?? '').split(' ').slice(2);
  const named = args.filter((arg) => arg.endsWith('.tgz')).map((arg) => arg.replace('~/deadbolt/tarballs/', ''));
  expect(named).toHaveLength(2);
  expect(readdirSync(join(work, 'tarballs'))).toEqual(expect.arrayContaining(named));
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'first-install', private: true }));
  // The guide's command, with its checkout in `work` instead of ~/deadbolt.
  const tarballs = args.map((arg) =>
    arg.startsWith('~/deadbolt/') ? join(work, arg.slice('~/deadbolt/'.length)) : arg,
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: app,
    timeout: 60_000,
  });
  const loaded = await run(
    process.execPath,
    [
      '-e',
      "const { LockClient } = require('@deadbolt/core'); const { ioredisExecutor } = require('@deadbolt/adapter-ioredis'); console.log(typeof LockClient, typeof ioredisExecutor)",
    ],
    { cwd: app },
  );
  expect(loaded.stdout).toBe('function function\n');
}, 70_000);

it("the operations guide's install command installs a `deadbolt` command that runs", async () => {
  const guide = readFileSync(join(root, 'docs/guides/operations.md'), 'utf8');
  const command = /^cd ~\/deadbolt\/tarballs && (npm install --global .*)$/m.exec(guide)?.[1];
  expect(command).toBeDefined();
  const args = (command ?? '').split(' ').slice(1);
  expect(args.filter((arg) => arg.endsWith('.tgz'))).toContain('./deadbolt-cli-0.0.0.tgz');
  // The guide's command, installing into a prefix of the test's own instead of npm's global one.
  const prefix = join(work, 'global');
  await run('npm', [...args, '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: join(work, 'tarballs'),
    timeout: 60_000,
  });
  const help = await run(join(prefix, 'bin', 'deadbolt'), ['--help']);
  expect(help.stdout).toMatch(/^Usage: deadbolt <command>/);
}, 70_000);

// `pnpm demo`'s build (scripts/build-quietly.mts, `lerna run build` cached by Nx per nx.json): run
// twice, the second run takes every package from the cache, in seconds, and each run prints one
// line. It runs in a scratch copy of the workspace holding core only (with the checkout's
// node_modules), so it neither waits for every package's build nor rewrites the checkout's dist/
// folders while other test files load them.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
/** What a package's build reads besides its own folder (nx.json's `buildRecipe`), and the workspace's configuration. */
const ROOT_FILES = [
  'package.json',
  'pnpm-workspace.yaml',
  'pnpm-lock.yaml',
  'lerna.json',
  'nx.json',
  'tsup.shared.ts',
  'luaIncludes.mts',
  'tsconfig.base.json',
];
const CORE_FILES = ['package.json', 'tsup.config.ts', 'tsconfig.json', 'src'];

let workspace: string;
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'deadbolt-build-cache-'));
  for (const file of ROOT_FILES) cpSync(join(root, file), join(workspace, file));
  mkdirSync(join(workspace, 'packages/core'), { recursive: true });
  for (const file of CORE_FILES) {
    cpSync(join(root, 'packages/core', file), join(workspace, 'packages/core', file), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(workspace, 'node_modules'));
  symlinkSync(join(root, 'packages/core/node_modules'), join(workspace, 'packages/core/node_modules'));
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const build = () =>
  run(process.execPath, ['--import', require.resolve('tsx'), join(root, 'scripts/build-quietly.mts')], {
    cwd: workspace,
    timeout: 150_000,
  });

it('a second build takes every package from the cache in seconds, and each build prints one line', async () => {
  const first = await build();
  expect(first.stdout).toMatch(/^build: 1 package ready \(0 from the cache\) in [\d.]+ s\n$/);
  const started = performance.now();
  const second = await build();
  expect(second.stdout).toMatch(/^build: 1 package ready \(1 from the cache\) in [\d.]+ s\n$/);
  expect(performance.now() - started).toBeLessThan(30_000);
}, 200_000);

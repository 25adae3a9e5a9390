import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The release flow of scripts/release-check.mts, end to end: changesets plan and version every
// publishable package, each is packed, the tarballs install into a scratch project, and programs
// there use them from ESM and CommonJS through each of the three adapters.
const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('../../', import.meta.url));

let server: RedisNode;
beforeAll(async () => {
  server = await startStandalone();
});
afterAll(() => server?.stop());

it('every package versions, packs, installs from its tarball and works from ESM and CommonJS', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', require.resolve('tsx'), 'scripts/release-check.mts'],
    {
      cwd: root,
      env: { ...process.env, REDIS_URL: server.url },
      timeout: 85_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  for (const format of ['esm', 'cjs']) {
    for (const adapter of ['ioredis', 'node-redis', 'valkey-glide']) {
      expect(stdout).toContain(
        `${format} ${adapter}: Lock, FairLock, read lock, FencedLock, MultiLock and RedLock taken and released\n`,
      );
      expect(stdout).toContain(
        `${format} ${adapter}: Semaphore permits taken and given back, CountDownLatch counted down and open\n`,
      );
    }
    expect(stdout).toMatch(new RegExp(`^${format}: all \\d+ modules load$`, 'm'));
  }
  expect(stdout).toMatch(/^release-check: changeset plan: @deadbolt\/core 0\.0\.0 -> \S+ \(\w+\)$/m);
  expect(stdout).toMatch(/^release-check: ok: \d+ packages version, pack, install and run from ESM and CommonJS$/m);
});

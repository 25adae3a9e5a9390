// `pnpm run release:check`: the release flow without publishing. The built packages must exist
// (`pnpm run build`). It
//   1. asks changesets what the pending changesets release, and fails if a publishable package has
//      no release planned;
//   2. runs `changeset version` in a scratch copy of the repository (the checkout is not touched);
//   3. packs every publishable package of that copy with `pnpm pack`, as `pnpm publish` would, and
//      checks each tarball holds its README, the repository's LICENSE and its ESM, CommonJS and
//      type entry points, and no relative link in any file (scripts/packing.mts);
//   4. installs the tarballs, with ioredis, redis and @valkey/valkey-glide from the registry, into a
//      scratch project;
//   5. runs an ESM (.mjs) and a CommonJS (.cjs) program there that take and release every lock
//      kind (Lock, FairLock, read lock, FencedLock with its token, MultiLock, RedLock), take and
//      give back permits of a Semaphore and open a CountDownLatch, through each adapter on a
//      redis-server (REDIS_URL, or one started for the run), and load every package. Kinds that
//      build on others (a MultiLock of core locks) must see one copy of core per format, or their
//      `instanceof` checks fail.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startStandalone } from '@deadbolt/test-harness';
import { packAll, publishablePackages, readManifest, root, run } from './packing.mjs';

const changeset = join(root, 'node_modules/@changesets/cli/bin.js');

interface PlannedRelease {
  name: string;
  type: string;
  oldVersion: string;
  newVersion: string;
}

const log = (line: string) => console.log(`release-check: ${line}`);

async function planReleases(work: string, names: readonly string[]): Promise<PlannedRelease[]> {
  const output = join(work, 'changeset-status.json');
  await run(process.execPath, [changeset, 'status', '--output', output], root);
  const { releases } = JSON.parse(readFileSync(output, 'utf8')) as { releases: PlannedRelease[] };
  const unplanned = names.filter((name) => !releases.some((release) => release.name === name));
  if (unplanned.length > 0)
    throw new Error(`no pending changeset releases ${unplanned.join(', ')}: add one with \`pnpm changeset\``);
  for (const { name, type, oldVersion, newVersion } of releases.filter((release) => names.includes(release.name))) {
    log(`changeset plan: ${name} ${oldVersion} -> ${newVersion} (${type})`);
  }
  return releases;
}

/** A copy of the repository without history or build caches, versioned by changesets. */
async function versionedCopy(work: string): Promise<string> {
  const copy = join(work, 'repository');
  const skipped = /(^|\/)(node_modules|\.git|docs\/site|coverage)(\/|$)/;
  cpSync(root, copy, { recursive: true, filter: (source) => !skipped.test(relative(root, source)) });
  await run(process.execPath, [changeset, 'version'], copy);
  // Links the workspace packages, so that `pnpm pack` can turn `workspace:` ranges into versions.
  await run(
    'pnpm',
    ['install', '--offline', '--frozen-lockfile', '--ignore-scripts', '--filter', './packages/*'],
    copy,
  );
  return copy;
}

/** What the programs take and release, as they report it. */
const KINDS = 'Lock, FairLock, read lock, FencedLock, MultiLock and RedLock';
/** What the programs do with the spin lock, as they report it on a line of its own. */
const SPIN_LOCK = 'SpinLock taken, a second attempt kept out by polling, released';
/** What the programs do with the synchronizers, as they report it on a line of its own. */
const SYNCHRONIZERS = 'Semaphore permits taken and given back, CountDownLatch counted down and open';

// One program, written once, loaded as ESM and as CommonJS.
function program(format: 'esm' | 'cjs', packages: readonly string[]): string {
  const modules = ['ioredis', 'redis', '@valkey/valkey-glide', ...packages];
  const load =
    format === 'esm'
      ? `${modules.map((name, i) => `import * as m${i} from '${name}';`).join('\n')}\nconst load = { ${modules.map((name, i) => `'${name}': m${i}`).join(', ')} };\nconst entry = import.meta.resolve('@deadbolt/core');`
      : `const load = { ${modules.map((name) => `'${name}': require('${name}')`).join(', ')} };\nconst entry = require.resolve('@deadbolt/core');`;
  return `${load}
const { Redis } = load['ioredis'];
const { createClient } = load['redis'];
const { GlideClient } = load['@valkey/valkey-glide'];
const { LockClient } = load['@deadbolt/core'];
const { ioredisExecutor } = load['@deadbolt/adapter-ioredis'];
const { nodeRedisExecutor } = load['@deadbolt/adapter-node-redis'];
const { valkeyGlideExecutor } = load['@deadbolt/adapter-valkey-glide'];
const { FairLock } = load['@deadbolt/fair-lock'];
const { ReadWriteLock } = load['@deadbolt/rwlock'];
const { FencedLock } = load['@deadbolt/fenced-lock'];
const { MultiLock } = load['@deadbolt/multilock'];
const { RedLock } = load['@deadbolt/redlock'];
const { Semaphore } = load['@deadbolt/semaphore'];
const { CountDownLatch } = load['@deadbolt/countdown-latch'];
const { SpinLock } = load['@deadbolt/spin-lock'];

async function exercise(label, executor) {
  const locks = new LockClient(executor);
  const name = 'release-check:${format}:' + label;
  await locks.lock(name).withLock(async () => {});
  const fair = await new FairLock(locks, name + ':fair').acquire({ waitTime: 5000 });
  await fair.release();
  const read = await new ReadWriteLock(locks, name + ':rw').readLock().acquire({ waitTime: 5000 });
  await read.release();
  const fenced = await new FencedLock(locks, name + ':fenced').acquire({ waitTime: 5000 });
  if (typeof fenced.token !== 'bigint') throw new Error('FencedLock token: ' + typeof fenced.token);
  await fenced.release();
  await new MultiLock([locks.lock(name + ':a'), locks.lock(name + ':b')]).withLock(() => {}, { waitTime: 5000 });
  await new RedLock([locks.lock(name + ':quorum')]).withLock(() => {}, { waitTime: 5000 });
  const semaphore = new Semaphore(locks, name + ':semaphore');
  await semaphore.trySetPermits(2);
  const permits = await semaphore.tryAcquire(2, { waitTime: 5000 });
  if (permits === null) throw new Error('Semaphore: 2 permits not acquired');
  await permits.release();
  const latch = new CountDownLatch(locks, name + ':latch');
  await latch.trySetCount(1);
  await latch.countDown();
  if (!(await latch.await({ waitTime: 5000 }))) throw new Error('CountDownLatch: not open after its count down');
  const spin = new SpinLock(locks, name + ':spin');
  const spinHeld = await spin.acquire({ waitTime: 5000 });
  if ((await spin.tryAcquire({ waitTime: 50 })) !== null) throw new Error('SpinLock: taken twice');
  await spinHeld.release();
  await locks.close();
  console.log('${format} ' + label + ': ${KINDS} taken and released');
  console.log('${format} ' + label + ': ${SYNCHRONIZERS}');
  console.log('${format} ' + label + ': ${SPIN_LOCK}');
}

async function main() {
  if (!entry.endsWith('${format === 'esm' ? '/dist/index.js' : '/dist/index.cjs'}')) throw new Error('@deadbolt/core resolved to ' + entry);
  const url = process.env.REDIS_URL;
  const ioredis = new Redis(url);
  await exercise('ioredis', ioredisExecutor(ioredis));
  await ioredis.quit();
  const nodeRedis = await createClient({ url }).connect();
  await exercise('node-redis', nodeRedisExecutor(nodeRedis));
  await nodeRedis.close();
  const { hostname, port } = new URL(url);
  const connection = { addresses: [{ host: hostname, port: Number(port || 6379) }] };
  const glide = await GlideClient.createClient(connection);
  await exercise('valkey-glide', valkeyGlideExecutor(glide, { connection }));
  glide.close();
  const empty = Object.keys(load).filter((name) => Object.keys(load[name]).length === 0);
  if (empty.length > 0) throw new Error('no exports from ' + empty.join(', '));
  console.log('${format}: all ' + Object.keys(load).length + ' modules load');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;
}

async function installAndRun(
  work: string,
  tarballs: readonly string[],
  names: readonly string[],
  redisUrl: string,
): Promise<void> {
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'deadbolt-release-check', private: true }, null, 2));
  // The driver versions the workspace tests with.
  const ioredis = readManifest(join(root, 'packages/adapter-ioredis')).devDependencies?.ioredis;
  const redis = readManifest(join(root, 'packages/adapter-node-redis')).devDependencies?.redis;
  const glide = readManifest(join(root, 'packages/adapter-valkey-glide')).devDependencies?.['@valkey/valkey-glide'];
  const nest = readManifest(join(root, 'packages/nestjs')).devDependencies?.['@nestjs/common'];
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...tarballs,
      `ioredis@${ioredis}`,
      `redis@${redis}`,
      `@valkey/valkey-glide@${glide}`,
      `@nestjs/common@${nest}`,
    ],
    app,
  );
  log(
    `installed ${tarballs.length} tarballs, ioredis@${ioredis}, redis@${redis}, @valkey/valkey-glide@${glide} and @nestjs/common@${nest} into a scratch project`,
  );
  for (const format of ['esm', 'cjs'] as const) {
    const file = join(app, `check.${format === 'esm' ? 'mjs' : 'cjs'}`);
    writeFileSync(file, program(format, names));
    process.stdout.write(await run(process.execPath, [file], app, { ...process.env, REDIS_URL: redisUrl }));
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'deadbolt-release-'));
  const server = process.env.REDIS_URL ? undefined : await startStandalone();
  try {
    const names = publishablePackages(root).map(({ manifest }) => manifest.name);
    await planReleases(work, names);
    const copy = await versionedCopy(work);
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const packed = await packAll(copy, tarballs, log);
    await installAndRun(work, packed, names, process.env.REDIS_URL ?? server?.url ?? '');
    log(`ok: ${names.length} packages version, pack, install and run from ESM and CommonJS`);
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

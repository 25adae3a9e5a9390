import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

// Every name a published entry exports is semver-bound and has a page on the site, so every entry
// of every published package is capped here: adding a name means raising its cap, on purpose, and
// a new entry fails until it has one. Names no package outside their own uses stay out (issue 34).
const CAPS: Readonly<Record<string, number>> = {
  // Issue 15: what applications use (the client, locks, held locks, errors, options) stays small.
  // (26: issue 30 added ForceUnlockOptions, the options of `forceUnlock`, which the site must show;
  // 27: issue 35 added LockLossReason, the type of `LockLostError.reason`; 28: ExtendOptions, the
  // options of `extend`, where a hold the watchdog keeps says `stopWatchdog`; 29: issue 31 added
  // UnsupportedServerError, what a server older than the minimum gets.)
  '@deadbolt/core': 29,
  // Issue 34: what lock kinds and synchronizers build on (declaring and running a kind, typed
  // commands and their replies, keys, owners, argument checks), with the types their signatures
  // name: 85 once the adapters' names moved out and core's internals (the local hand-off
  // registry, `definedScripts`, `decodePttl`, `checkOwner`, `LOCK_WAKES`) left; 88 with the key
  // layouts the kinds declare and the CLI reads (`KeyLayout`, `LOCK_KEY_LAYOUT`, `nameFromPrefixed`);
  // 91 with the give-back rules locks and semaphores share (`runAttempt`, `giveBackQuietly`,
  // `giveBackIfGone`); 92 with `ChannelMark`, what `LockRuntime.channelMark` returns (issue 33: a
  // waiter joining a channel subscribed before its attempt need not try again); 93 with
  // `watchLoss`, how a lock group watches its members without making Node create their signals;
  // 94 with `OneAtATime`, what every held thing's release() shares (issue 35: a second call waits
  // for the first and finds its outcome); 96 with `HoldLimit`, what a `HoldHandle` says of a
  // `maxHoldTime`, and `checkExtendOptions`, which a lock group's `extend` checks as a held lock's;
  // 97 with `confirmOrGiveBack`, the replica sync of an acquisition that locks and semaphores share
  // (issue 32: a failover must not invent permits).
  '@deadbolt/core/kit': 97,
  // Issue 34: what an adapter needs beyond the `Executor` type: the listener and command arguments
  // of that contract, the subscriber router and links, options, `hashSlot` and `checkMethods`;
  // 13 with `DriverLinkStatus`, the type of `DriverLink.status`.
  '@deadbolt/core/adapter': 13,
  // An adapter: its executor factory and that factory's options, and the driver's types the
  // options name (node-redis's client, cluster, sentinel and pub/sub shapes; GLIDE's client).
  '@deadbolt/adapter-ioredis': 2,
  '@deadbolt/adapter-node-redis': 12,
  '@deadbolt/adapter-valkey-glide': 4,
  // A kind: its class or classes, options and held shapes, its declaration for kind authors and,
  // where the CLI reads its keys, their layout and key names.
  '@deadbolt/countdown-latch': 3,
  '@deadbolt/fair-lock': 6,
  '@deadbolt/fenced-lock': 5,
  '@deadbolt/spin-lock': 3,
  // Lock groups: MultiLock and the group machinery RedLock builds on.
  '@deadbolt/multilock': 13,
  '@deadbolt/redlock': 7,
  '@deadbolt/rwlock': 14,
  '@deadbolt/semaphore': 11,
  // The instrumentation, its options and the metric and attribute names dashboards use (12: issue
  // 35 added the loss reason attribute and its values; 13: the scope's version).
  '@deadbolt/opentelemetry': 13,
  // The `deadbolt` command, and the library under it: connect, list, inspect, force-unlock.
  '@deadbolt/cli': 23,
  // Issue 36: the NestJS module and its options, `@WithLock` and its options, `lockSignal`.
  '@deadbolt/nestjs': 7,
  // Issue 36: a server and a cluster for tests, their suite-hook forms, and two lock assertions.
  '@deadbolt/testing': 11,
  // Issue 36: what those are built from, which Deadbolt's private harness builds its other
  // topologies on instead of keeping a copy: process nodes and their options, the standalone and
  // cluster starts, node-group start/stop, a raw RESP client with its errors and reply readers,
  // the binary and port lookups, the run-directory reaping, and polling; 42 with the server builds
  // of issue 31 (`ServerBuild`, `selectedServerBuild`, `ServerBuildError` and the two variables
  // that choose and find a build).
  '@deadbolt/testing/servers': 42,
};

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Entry {
  readonly name: string;
  readonly source: string;
}

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly exports?: Record<string, string | { import?: { default?: string } }>;
}

/** Every entry of every published package, with the source file its build comes from. */
function publishedEntries(): Entry[] {
  return readdirSync(join(root, 'packages')).flatMap((dir) => {
    const path = join(root, 'packages', dir, 'package.json');
    if (!existsSync(path)) return [];
    const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
    if (manifest.private) return [];
    return Object.entries(manifest.exports ?? {}).flatMap(([subpath, target]) => {
      const built = typeof target === 'string' ? undefined : target.import?.default;
      if (built === undefined) return [];
      const source = join(root, 'packages', dir, built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
      return [{ name: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`, source }];
    });
  });
}

function exportedNames(source: string): string[] {
  const program = ts.createProgram([source], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const file = program.getSourceFile(source);
  const checker = program.getTypeChecker();
  const module = file && checker.getSymbolAtLocation(file);
  if (!module) throw new Error(`no module symbol for ${source}`);
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

const entries = publishedEntries();

it('finds every published entry, and each has a cap', () => {
  expect(entries.map((entry) => entry.name)).toContain('@deadbolt/core/kit');
  expect(entries.map((entry) => entry.name).filter((name) => CAPS[name] === undefined)).toEqual([]);
});

it.each(entries)('$name stays within its cap', ({ name, source }) => {
  const names = exportedNames(source);
  expect(names.length, names.join(', ')).toBeGreaterThan(0);
  expect(names.length, names.join(', ')).toBeLessThanOrEqual(CAPS[name] ?? 0);
});

it("no name is exported from two of core's entries", () => {
  const owners = new Map<string, string[]>();
  for (const { name, source } of entries.filter((entry) => entry.name.startsWith('@deadbolt/core')))
    for (const exported of exportedNames(source)) owners.set(exported, [...(owners.get(exported) ?? []), name]);
  expect([...owners].filter(([, where]) => where.length > 1)).toEqual([]);
});

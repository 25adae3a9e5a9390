import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  startCluster,
  startReplicated,
  startSentinel,
  startServers,
  startStandalone,
  startTlsStandalone,
} from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleCommand, exampleRuntime } from './exampleRuntime.js';

// Every example runs as a user would run it (tsx, the address in an environment variable), on a
// server of its own, and must exit 0 and print what it claims to show. DEADBOLT_EXAMPLES_RUNTIME=bun
// runs them on Bun instead (exampleRuntime.ts).
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const sources = fileURLToPath(new URL('../src/', import.meta.url));

const runtime = exampleRuntime();

async function runExample(file: string, env: Record<string, string>): Promise<string> {
  const [command, args] = exampleCommand(runtime, `${sources}${file}`);
  const { stdout } = await run(command, args, {
    // The examples' tsconfig, wherever the test runs from: the Nest example needs its decorator settings.
    env: { ...process.env, TSX_TSCONFIG_PATH: fileURLToPath(new URL('../tsconfig.json', import.meta.url)), ...env },
    timeout: 60_000,
  });
  return stdout;
}

/** What each standalone example must print; every file in src/ needs an entry here or below. */
const STANDALONE: Record<string, (stdout: string) => void> = {
  'getting-started-ioredis.ts': (out) => {
    expect(out).toContain('rendering the report, lock lost: false\nreleased the lock; the report has 12 pages\n');
  },
  'getting-started-node-redis.ts': (out) => {
    expect(out).toMatch(/^rendering the report as owner \S+\nlocked after the block: false\n/m);
  },
  'getting-started-valkey-glide.ts': (out) => {
    expect(out).toMatch(/^held in turn by: (first, second|second, first)\n/m);
  },
  'owner-model.ts': (out) => {
    // The two requests sharing one handle hold the lock one after the other, never together.
    expect(out).toMatch(
      /^request (A|B) holds the lock as owner \S+\nrequest \1 releases it\nrequest (A|B) holds the lock as owner \S+\nrequest \2 releases it\n/m,
    );
    expect(out).toContain(
      'nested hold count: 2\nouter hold count: 1\njob-42 hold count: 2\nlocked after both releases: false\n',
    );
    expect(out).toContain('release after the lease ended: LockLostError\nreleased again: LockNotHeldError\n');
  },
  'local-handoff.ts': (out) => {
    // With hand-offs the first three releases pass the lock on and only the last one is announced;
    // without, every release is.
    expect(out).toContain('cohort: tasks held it in the order 1, 2, 3, 4; releases announced to every process: 1\n');
    expect(out).toMatch(
      /^strict: tasks held it in the order [1-4], [1-4], [1-4], [1-4]; releases announced to every process: 4\n/m,
    );
  },
  'cron-job.ts': (out) => {
    expect(out).toBe(
      'instance a ran the 10:00 tick: true; instance b, 120 ms after a finished: false\n' +
        'the 10:00 report was sent 1 time(s)\ninstance b ran the 10:01 tick: true\n',
    );
  },
  'waiting.ts': (out) => {
    expect(out).toContain('tryAcquire: null, the lock is taken\n');
    expect(out).toContain('acquire with waitTime: Timed out after 200 ms waiting for lock "orders:42"\n');
    expect(out).toContain('acquire with a signal: the client went away\n');
    expect(out).toMatch(/^await using: held by owner \S+\nwithLock returned 42\nfixed lease: expires in \d+ ms\n/m);
    expect(Number(/expires in (\d+) ms/.exec(out)?.[1])).toBeLessThanOrEqual(10_000);
  },
  'hold-limits.ts': (out) => {
    expect(out).toBe(
      'while checkout holds the cart: busy, try again\nafter checkout: updated\n' +
        'kept by the watchdog: true\nextend without stopWatchdog: refused (options.stopWatchdog)\n' +
        'kept by the watchdog: false, lease: 60000 ms\n' +
        'stuck holder stopped: maxHoldTimeReached\nthe next holder got the lock: true\n',
    );
  },
  'lock-lost.ts': (out) => {
    expect(out).toContain('importing batch 1\n');
    expect(out).toMatch(/^lockLost event: nightly-import \(gone\): .+\nimport stopped: LockLostError \(gone\)\n/m);
    expect(out).toMatch(/^lockLost event: nightly-report \(gone\): .+\nreport stopped: LockLostError \(gone\)\n/m);
    expect(out).toContain(
      'fixed lease over: The 300 ms lease of lock "nightly-export" ended\n' +
        'lockLost event: nightly-export (leaseEnded): The 300 ms lease of lock "nightly-export" ended\n',
    );
    expect(out).toContain(
      'release: LockLostError: The 300 ms lease of lock "nightly-export" ended\nreleased twice: LockNotHeldError\n',
    );
  },
  'fair-lock.ts': (out) => {
    expect(out).toContain(
      'job A prints\njob B prints\njob C prints\njob D prints\nimpatient job: LockWaitTimeoutError\n',
    );
  },
  'read-write-lock.ts': (out) => {
    expect(out).toContain(
      '2 readers hold the read lock together\nthe readers leave\nthe writer updates the catalog alone\n',
    );
    expect(out).toContain('after the downgrade another reader gets in: true\nupgrade refused: LockUpgradeError\n');
  },
  'countdown-latch.ts': (out) => {
    expect(out).toBe(
      'api reports ready\nworker reports ready\nscheduler reports ready\ndeploy may start: true\n' +
        'second round, after waiting 100 ms: false\ndeleted: true, count: 0\n',
    );
  },
  'semaphore.ts': (out) => {
    expect(out).toBe(
      'a third export, tryAcquire: null\none permit back: 1 available, the rebuild waits\nthe rebuild holds 2 permits\n' +
        'an export gave up: Timed out after 100 ms waiting for 1 permit(s) of semaphore "report-exports"\n' +
        'drained 2, available: 0\nrestored, available: 2\n',
    );
  },
  'permit-expirable-semaphore.ts': (out) => {
    expect(out).toContain(
      'the job holds a licence under a 32-hex-digit id, renewed by the watchdog: true\nfree licences: 0\n',
    );
    expect(out).toContain("the worker's signal: LockLostError\n");
    expect(out).toContain('the next job got a licence once the lease had ended: true, 1 held\n');
    expect(out).toContain(
      'lease extended by id: true\nreleased by id, then again: false\nfree licences at the end: 2\n',
    );
  },
  'spin-lock.ts': (out) => {
    expect(out).toBe(
      'report built\nwhile waiting, channels subscribed: 0, on the server: 0\nthe waiter holds it: true\n' +
        'tryAcquire while held: null\naborted: TimeoutError\nlocked after all: false\n',
    );
  },
  'nestjs.ts': (out) => {
    expect(out).toBe('invoice 7 issued\ninvoice 7 was already issued\ninvoice 8: HTTP 423\n');
  },
  'redisson-interop.ts': (out) => {
    expect(out).toContain('Deadbolt tryAcquire while Java holds it: null\n');
    // Woken by the unlock message, not by the Java hold's 30 s lease running out.
    expect(Number(/took it after (\d+) ms/.exec(out)?.[1])).toBeLessThan(30_000);
    const field = /^Deadbolt's owner field: (\S+)$/m.exec(out)?.[1];
    expect(out).toContain(`hash: ${JSON.stringify({ [field ?? '?']: '1' })}\n`);
  },
  'migrating-from-node-redlock.ts': (out) => {
    expect(out).toBe(
      'withLock: done\nacquire and release: done\nfixed lease and extend: done\ntryAcquire: acquired\nacquire with waitTime: done\n',
    );
  },
  'migrating-from-redlock-universal.ts': (out) => {
    expect(out).toMatch(
      /^withLock: done\nacquire and release: done\nawait using: held by owner \S+\nextend: expires within 10 s: true\n/,
    );
    expect(out).toContain(
      'release after the lease ended: LockLostError\nisLocked: true\ntryAcquire while node-redis holds it: null\n' +
        'acquire with waitTime: LockWaitTimeoutError\nRedLock: held by at least 2 of 3, lost: false\n',
    );
  },
  'fenced-storage.ts': (out) => {
    expect(out).toContain(
      'A writes with token 1: accepted\nB writes with token 2: accepted\nA, back from its pause, writes with token 1: refused\n' +
        "A's lock signal aborted: true\nbalance: 90 from B\ncurrent token: 2\nA's release: LockLostError\nbalance: 95 from C\n",
    );
    // Nested holds: the inner one drew the newer token, so the outer one's is refused after it.
    expect(out).toContain(
      "D's inner hold writes with token 5: accepted\nD's outer hold writes with token 4: refused\n",
    );
  },
  'writing-a-lock-kind.ts': (out) => {
    // The default note, `<hostname> pid <pid>` of the example's process, beside the owner field in the lock hash.
    const note = `${hostname()} pid ${/^holder is this hold's owner: true, note: .* pid (\d+)$/m.exec(out)?.[1]}`;
    expect(out).toContain(`holder is this hold's owner: true, note: ${note}\n`);
    const hash = JSON.parse(/^hash: (.*)$/m.exec(out)?.[1] ?? '{}') as Record<string, string>;
    expect(Object.entries(hash)).toEqual([
      [expect.stringMatching(/^[\w-]+:#1$/), '1'],
      ['note', note],
    ]);
    expect(out).toContain(
      `hold count: 2, note: ${note}\nanother NotedLock: null, a plain Lock: null\n` +
        'after 2.5 watchdog leases: locked true, note kept: true\nafter the release: locked false, holder null, keys left 0\n' +
        'while Redisson holds it: tryAcquire null, holder thread 57, note null\nisLock: true\n',
    );
  },
  'operations.ts': (out) => {
    expect(out).toBe(
      'invoices:2026-11 (lock) held by client billing-worker, owner run-7, 1 hold(s)\nforce-unlocked: true\nlocked afterwards: false\n',
    );
  },
  'opentelemetry.ts': (out) => {
    const invoices = (outcome?: string) =>
      JSON.stringify({
        'deadbolt.lock.kind': 'lock',
        'deadbolt.lock.name': 'invoices',
        ...(outcome ? { 'deadbolt.lock.outcome': outcome } : {}),
      });
    expect(out).toBe(
      "another-job did not get invoices:2026-11: timedOut\nanother job's tryAcquire: null\n" +
        `deadbolt.lock.wait.duration (s) ${invoices('taken')}: 1 recorded\ndeadbolt.lock.wait.duration (s) ${invoices('timed_out')}: 1 recorded\n` +
        `deadbolt.lock.hold.duration (s) ${invoices()}: 1 recorded\n` +
        `deadbolt.lock.acquisitions ({acquisition}) ${invoices('taken')}: 1\ndeadbolt.lock.acquisitions ({acquisition}) ${invoices('timed_out')}: 1\n` +
        `deadbolt.lock.waiting ({acquisition}) ${invoices()}: 0\ndeadbolt.lock.held ({hold}) ${invoices()}: 0\n` +
        `span deadbolt.acquire lock ${invoices('taken')}, 0 link(s)\n` +
        `span deadbolt.acquire lock ${invoices('timed_out')}, 0 link(s), in send invoices\n` +
        `span send invoices {}, 0 link(s), in deadbolt.hold lock\nspan deadbolt.hold lock ${invoices()}, 1 link(s)\n`,
    );
  },
  'migrating-from-redis-semaphore.ts': (out) => {
    expect(out).toBe(
      'critical code\ntryAcquire: acquired\ncritical cycle iteration 1\ncritical cycle iteration 2\ncritical cycle iteration 3\n',
    );
  },
};

const CLUSTER: Record<string, (stdout: string) => void> = {
  'cluster.ts': (out) => {
    expect(out).toBe(
      'the node-redis waiter was woken by the release and holds {order:42}:payment\nioredis holds {order:42}:shipping in the same slot\n' +
        'the GLIDE waiter was woken by the release and held {order:42}:shipping\n',
    );
  },
};

/** Examples over several independent servers (MultiLock across deployments, RedLock). */
const SERVERS: Record<string, (stdout: string) => void> = {
  'multilock.ts': (out) => {
    expect(out).toMatch(
      /^holding 2 locks, lost: false\ntransfer while bob is held elsewhere: null; alice locked: false\n(transfer\nrefund|refund\ntransfer)\nevery member's lease: 10000, 10000 ms\n/m,
    );
    expect(out).toContain('holding order:42 and stock:sku-9; stock lock on the warehouse server: true\n');
  },
  'redlock.ts': (out) => {
    expect(out).toMatch(
      /^held by at least 2 of 3 servers, valid for \d+ ms\nrendering, lost: false\nreleased; the report has 12 pages\n/m,
    );
    expect(Number(/valid for (\d+) ms/.exec(out)?.[1])).toBeLessThanOrEqual(10_000);
    expect(out).toContain(
      'the rival while the job holds it: null\ngone from 1 of 3 servers, lost: false\n' +
        'gone from 2 of 3 servers, lost: true (LockLostError)\nrelease: LockLostError\n',
    );
  },
};

/** Examples on a master with a replica (replica sync). */
const REPLICATED: Record<string, (stdout: string) => void> = {
  'replica-sync.ts': (out) => {
    expect(out).toBe(
      'token 1; on the replica: lock true, counter 1\nafter the release, on the replica: lock false\n' +
        'acquire: 1 of 2 replicas acknowledged\nlocked after the failed acquisition: false\n',
    );
  },
};

const TLS: Record<string, (stdout: string) => void> = {
  'tls-acl-eviction.ts': (out) => {
    expect(out).toBe(
      'locked over TLS: true\nlocks-app holds payments:invoice-7\norders:42 is not granted: PermissionDeniedError, missing key\n' +
        "evictionRisk: maxmemory-policy is allkeys-lru\nevictionPolicy 'throw': EvictionRiskError (allkeys-lru)\n",
    );
  },
};

/** Examples on a Sentinel deployment (a master, two replicas, three Sentinels). */
const SENTINEL: Record<string, (stdout: string) => void> = {
  'sentinel.ts': (out) => {
    expect(out).toBe('the node-redis waiter was woken by the release and holds invoices:2026-11\n');
  },
};

// Programs are named in kebab case; a file named after the class it exports (FencedStorage.ts) is a
// module that programs import, and runs as part of them.
const files = readdirSync(sources).filter((file) => file.endsWith('.ts'));
const isModule = (file: string) => /^[A-Z]/.test(file);

it('every example has expectations', () => {
  const programs = files.filter((file) => !isModule(file));
  const expected = [STANDALONE, CLUSTER, SERVERS, REPLICATED, TLS, SENTINEL].flatMap((examples) =>
    Object.keys(examples),
  );
  expect(programs.sort()).toEqual(expected.sort());
});

it('every module is imported by an example that runs', () => {
  const imports = files.filter((file) => !isModule(file)).map((file) => readFileSync(`${sources}${file}`, 'utf8'));
  const unused = files
    .filter(isModule)
    .filter((module) => !imports.some((text) => text.includes(`from './${module.replace(/\.ts$/, '.js')}'`)));
  expect(unused).toEqual([]);
});

it('the examples typecheck', async () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  await expect(run(process.execPath, [tsc, '--noEmit', '-p', project], { timeout: 60_000 })).resolves.toBeDefined();
});

/** Runs `examples` as tests on a topology started once for them, stopped after them. */
function describeOn<T extends { stop(): Promise<void> }>(
  topology: string,
  start: () => Promise<T>,
  env: (started: T) => Record<string, string>,
  examples: Record<string, (stdout: string) => void>,
): void {
  describe(`on ${topology}`, () => {
    let started: T | undefined;
    beforeAll(async () => {
      started = await start();
    });
    afterAll(() => started?.stop());
    for (const [file, check] of Object.entries(examples)) {
      it(file, async () => {
        if (!started) throw new Error(`${topology} did not start`);
        check(await runExample(file, env(started)));
      });
    }
  });
}

describeOn(
  'a standalone server',
  () => startStandalone(),
  (node) => ({ REDIS_URL: node.url }),
  STANDALONE,
);
describeOn(
  'a cluster',
  () => startCluster(),
  (cluster) => ({
    REDIS_CLUSTER_NODES: cluster.startupNodes.map(({ host, port }) => `${host}:${port}`).join(','),
  }),
  CLUSTER,
);
describeOn(
  'three servers',
  () => startServers(3),
  (servers) => ({ REDIS_URLS: servers.urls.join(',') }),
  SERVERS,
);
describeOn(
  'a master with a replica',
  () => startReplicated(),
  ({ master, replica }) => ({
    REDIS_URL: master.url,
    REDIS_REPLICA_URL: replica.url,
  }),
  REPLICATED,
);
describeOn(
  'a TLS server',
  () => startTlsStandalone(),
  (server) => ({ REDIS_TLS_URL: server.url, REDIS_CA_FILE: server.certificates.caFile }),
  TLS,
);
describeOn(
  'a Sentinel deployment',
  () => startSentinel(),
  (deployment) => ({
    REDIS_SENTINELS: deployment.sentinelAddresses.map(({ host, port }) => `${host}:${port}`).join(','),
    REDIS_SENTINEL_NAME: deployment.masterName,
  }),
  SENTINEL,
);

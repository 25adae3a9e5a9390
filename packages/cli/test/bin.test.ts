// The built `deadbolt` bin run as a child process, as a user runs it: one end-to-end case per
// command, then the error cases, each a non-zero exit and one line on stderr.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { useBackendContext } from '@deadbolt/conformance';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { LockInfo } from '../src/index.js';
import { jsonOf, runBin, runInProcess, urlOf } from './helpers.js';

/** A port nothing listens on: one the OS just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const oneErrorLine = (stderr: string) => expect(stderr).toMatch(/^deadbolt: [^\n]+\n$/);

describe('the deadbolt bin', () => {
  const ctx = useBackendContext('ioredis', 'standalone');
  const url = () => urlOf(ctx.backend());
  const raw = (...args: (string | number)[]) => ctx.backend().command(args);

  it('ls, show, watch and unlock --force --yes, end to end', async () => {
    const client = await ctx.client({ clientId: 'cli-bin-billing-service' });
    const name = ctx.uniqueName('bin');
    await client.lock(name).acquire({ owner: 'job-1' });

    const [listed, shown, watched] = await Promise.all([
      runBin(['ls', `${name}*`, '--url', url()]),
      runBin(['show', name, '--url', url()]),
      runBin(['watch', name, '--count', '2', '--interval', '100', '--url', url()]),
    ]);
    expect(listed.stdout).toMatch(
      new RegExp(`^NAME .*\\n${name} +lock +[\\d.]+s +cli-bin-billing-service:job-1 x1 +- +-\\n$`),
    );
    expect(shown.stdout).toMatch(/^ {2}owner +cli-bin-billing-service +job-1 +1 +the lock TTL$/m);
    // Two looks, appended (stdout is no terminal), each with its timestamp line.
    expect(watched.stdout.match(/^\d{4}-\d\d-\d\dT.*every 100ms, Ctrl-C to stop$/gm)).toHaveLength(2);

    const waiter = client.lock(name).acquire({ owner: 'job-2', waitTime: 10_000 });
    const unlocked = await runBin(['unlock', name, '--force', '--yes', '--url', url()]);
    // Timed from the command's exit, not its start: starting a Node process is slow on a loaded machine.
    const exited = performance.now();
    // --yes asks nobody, so the line says whose holds it freed.
    expect([unlocked.code, unlocked.stdout, unlocked.stderr]).toEqual([
      0,
      `unlocked "${name}" (lock), held by owner cli-bin-billing-service:job-1 x1; its waiters were woken\n`,
      '',
    ]);
    await (await waiter).release();
    // Woken by the unlock, not after the holder's 30 s lease.
    expect(performance.now() - exited).toBeLessThan(3_000);
  });

  it('fails with one line and an exit code that says why: 2 a bad URL, 6 unreachable, 1 not a lock, 3 no lock', async () => {
    await raw('SET', 'cli:a-string', 'x');
    await raw('HSET', 'cli:a-hash', 'color', 'blue');
    const results = await Promise.all([
      runBin(['ls', '--url', 'http://127.0.0.1:1']),
      runBin(['ls', '--url', 'redis://127.0.0.1:notaport']),
      runBin(['ls', '--url', `redis://127.0.0.1:${await closedPort()}`]),
      runBin(['show', 'cli:a-string', '--url', url()]),
      runBin(['show', 'cli:a-hash', '--url', url()]),
      runBin(['show', 'cli:nothing-here', '--url', url()]),
    ]);
    expect(results.map((result) => result.code)).toEqual([2, 2, 6, 1, 1, 3]);
    for (const result of results) {
      oneErrorLine(result.stderr);
      expect(result.stdout).toBe('');
    }
    const [scheme, port, unreachable, string, hash, missing] = results.map((result) => result.stderr);
    expect(scheme).toContain('unsupported scheme "http:"');
    expect(port).toContain('not a URL');
    expect(unreachable).toMatch(/cannot reach redis:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    expect(string).toContain('"cli:a-string" is a string, not a lock');
    expect(hash).toContain('"cli:a-hash" is a hash whose fields are not owners');
    expect(missing).toContain('no lock "cli:nothing-here": nobody holds it and nobody waits for it');
  });

  it('never prints the password of a URL, valid or not, in its errors', async () => {
    const closed = await closedPort();
    const results = await Promise.all([
      runBin(['ls', '--url', `redis://ops:s3cret@127.0.0.1:${closed}`]),
      runBin(['ls', '--url', 'redis://ops:s3cret@127.0.0.1:notaport']),
      runBin(['ls', '--url', 'http://ops:s3cret@127.0.0.1']),
      runBin(['ls'], { REDIS_URL: 'redis://ops:s3cret@127.0.0.1:notaport' }),
    ]);
    expect(results.map((result) => result.code)).toEqual([6, 2, 2, 2]);
    for (const result of results) {
      oneErrorLine(result.stderr);
      expect(result.stderr).toMatch(/ops(:\*\*\*)?@127\.0\.0\.1/);
      expect(result.stderr).not.toContain('s3cret');
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runBin(['--version'])).toEqual({ code: 0, stdout: `deadbolt ${version}\n`, stderr: '' });
  });

  it('unlock --dry-run names the holders it would free, and frees nothing', async () => {
    const client = await ctx.client({ clientId: 'cli-dry-run' });
    const name = ctx.uniqueName('dry-run');
    await client.lock(name).acquire({ owner: 'job-1' });
    const [text, json, missing] = await Promise.all([
      runBin(['unlock', name, '--dry-run', '--url', url()]),
      runBin(['unlock', name, '--dry-run', '--json', '--url', url()]),
      runBin(['unlock', `${name}-none`, '--dry-run', '--url', url()]),
    ]);
    expect([text.code, text.stdout, text.stderr]).toEqual([
      0,
      `would unlock "${name}" (lock), held by owner cli-dry-run:job-1 x1, and wake its waiters; nothing deleted (--dry-run)\n`,
      '',
    ]);
    expect(jsonOf(json)).toMatchObject({ name, kind: 'lock', unlocked: false, dryRun: true });
    expect(missing.code).toBe(3);
    expect(await client.lock(name).isHeldBy('job-1')).toBe(true);
  });

  it("ls reads one field of an application's hash, never all of it (HGETALL)", async () => {
    const prefix = ctx.uniqueName('sampled');
    const client = await ctx.client({ clientId: 'cli-sampled' });
    await client.lock(`${prefix}:lock`).acquire({ owner: 'o1' });
    await raw('HSET', `${prefix}:data:session`, 'user', 'ada', 'cart', '3');
    await raw('HSET', `${prefix}:data:counters`, 'a:b', 'x');
    // HGETALL is refused on the application's hashes, allowed on the lock (an ACL selector).
    await raw(
      'ACL',
      'SETUSER',
      'cli-sampler',
      'reset',
      'on',
      '>pw',
      '~*',
      '&*',
      '+@all',
      '-hgetall',
      `(~${prefix}:lock +hgetall)`,
    );
    try {
      const sampler = new URL(urlOf(ctx.backend()));
      [sampler.username, sampler.password] = ['cli-sampler', 'pw'];
      const listed = await runInProcess(['ls', `${prefix}:*`, '--json', '--url', sampler.toString()]);
      expect(jsonOf<LockInfo[]>(listed).map((lock) => lock.name)).toEqual([`${prefix}:lock`]);
    } finally {
      await raw('ACL', 'DELUSER', 'cli-sampler');
    }
  });

  describe('without permission', () => {
    afterAll(async () => {
      await raw('ACL', 'DELUSER', 'cli-limited');
    });

    it('reports NOPERM as one line and exit 5, refused credentials as exit 4', async () => {
      // A user that may connect and ask INFO, but not SCAN or read keys.
      await raw('ACL', 'SETUSER', 'cli-limited', 'on', '>secret', '~*', '+@connection', '+info');
      const url = new URL(urlOf(ctx.backend()));
      url.username = 'cli-limited';
      url.password = 'secret';
      const result = await runBin(['ls', '--url', url.toString()]);
      expect(result.code).toBe(5);
      oneErrorLine(result.stderr);
      expect(result.stderr).toMatch(/^deadbolt: no permission to SCAN on .*: NOPERM/);
      // Allowed to scan but not to read keys: the refusal inside MULTI is reported, not EXECABORT.
      await raw('ACL', 'SETUSER', 'cli-limited', '+scan', '+hrandfield', '+multi', '+exec', '+pubsub');
      await raw('HSET', 'cli:perm-lock', 'client:owner', '1');
      const reading = await runInProcess(['ls', 'cli:perm-*', '--url', url.toString()]);
      expect([reading.code, reading.stderr]).toEqual([
        5,
        `deadbolt: no permission to read "cli:perm-lock": NOPERM this user has no permissions to run the 'type' command\n`,
      ]);
      const wrong = await runInProcess(['ls', '--url', url.toString().replace('secret', 'wrong')]);
      expect([wrong.code, wrong.stderr]).toEqual([
        4,
        expect.stringMatching(/^deadbolt: authentication failed: WRONGPASS/),
      ]);
    });
  });

  it('refuses an unlock without --force (exit 2), and without --yes when nobody can answer (exit 1)', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('refused');
    await client.lock(name).acquire();
    const [noForce, noYes] = await Promise.all([
      runBin(['unlock', name, '--url', url()]),
      runBin(['unlock', name, '--force', '--url', url()]),
    ]);
    expect(noForce.code).toBe(2);
    oneErrorLine(noForce.stderr);
    expect(noYes.code).toBe(1);
    expect(noYes.stderr).toBe('deadbolt: stdin is not a terminal: add --yes to force-unlock without a question\n');
    expect(await client.lock(name).isLocked()).toBe(true);

    // On a terminal it asks, naming the holders; only a yes unlocks.
    const questions: string[] = [];
    const answer = (yes: boolean) => (question: string) => {
      questions.push(question);
      return Promise.resolve(yes);
    };
    const declined = await runInProcess(['unlock', name, '--force', '--url', url()], { confirm: answer(false) });
    expect([declined.code, declined.stderr]).toEqual([1, 'deadbolt: not unlocked: not confirmed\n']);
    expect(await client.lock(name).isLocked()).toBe(true);
    expect((await runInProcess(['unlock', name, '--force', '--url', url()], { confirm: answer(true) })).code).toBe(0);
    expect(await client.lock(name).isLocked()).toBe(false);
    expect(questions[0]).toMatch(
      new RegExp(
        `^Force-unlock "${name}" \\(lock\\), held by owner [\\da-f-]{36}:\\S+ x1\\? Its holders will lose it\\. \\[y/N\\] $`,
      ),
    );
  });

  it("refuses another command's option with exit 2, naming both; --help after a command lists its options", async () => {
    const [foreign, help] = await Promise.all([runBin(['ls', '--force', '--url', url()]), runBin(['watch', '--help'])]);
    expect([foreign.code, foreign.stdout, foreign.stderr]).toEqual([
      2,
      '',
      'deadbolt: ls does not take --force: it is an option of unlock (see deadbolt ls --help)\n',
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: deadbolt watch <name> \[options\]\n/);
    for (const option of ['--interval <ms>', '--count <n>', '--url <url>', '--json'])
      expect(help.stdout).toContain(option);
    for (const option of ['--force', '--yes']) expect(help.stdout).not.toContain(option);
  });

  it('finds a Redisson semaphore while someone waits on its channel, and only then', async () => {
    const name = ctx.uniqueName('semaphore');
    await raw('SET', name, '0');
    const alone = await runInProcess(['show', name, '--url', url()]);
    expect(alone.stderr).toContain(
      'a Redisson semaphore is a string too, but one nobody waits on cannot be told from any other',
    );
    // A waiting Java client subscribes to redisson_sc:{name}.
    const subscriber = new Redis(urlOf(ctx.backend()));
    try {
      await subscriber.subscribe(`redisson_sc:{${name}}`);
      const [semaphore] = jsonOf<LockInfo[]>(await runInProcess(['ls', name, '--json', '--url', url()]));
      expect(semaphore).toEqual({
        name,
        kind: 'semaphore',
        held: false,
        ttl: null,
        holders: [],
        hash: {},
        waiters: [],
        permits: 0,
        subscribers: 1,
      });
      const unlock = await runInProcess(['unlock', name, '--force', '--yes', '--url', url()]);
      expect(unlock.stderr).toContain('is not held');
    } finally {
      subscriber.disconnect();
    }
  });
});

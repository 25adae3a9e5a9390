// How the built bin is told where and how to connect, besides --url: REDIS_URL, a password in
// DEADBOLT_PASSWORD or a file (never seen in `ps`), and TLS with a CA, a client certificate, or
// no check at all; each refusal with its own exit code.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useBackendContext } from '@deadbolt/conformance';
import { startTlsStandalone, type TlsStandaloneHandle } from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, urlOf } from './helpers.js';

const oneErrorLine = (stderr: string) => expect(stderr).toMatch(/^deadbolt: [^\n]+\n$/);

const files = mkdtempSync(join(tmpdir(), 'deadbolt-cli-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));
function fileWith(name: string, text: string): string {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
}

describe('credentials', () => {
  const ctx = useBackendContext('ioredis', 'standalone');
  const raw = (...args: string[]) => ctx.backend().command(args);
  // The user's URL, without a password: what REDIS_URL or --url holds when the password is elsewhere.
  const userUrl = () => {
    const url = new URL(urlOf(ctx.backend()));
    url.username = 'cli-ops';
    return url.toString();
  };

  beforeAll(async () => {
    await raw('ACL', 'SETUSER', 'cli-ops', 'reset', 'on', '>ops-secret', '~*', '&*', '+@all');
  });
  afterAll(async () => {
    await raw('ACL', 'DELUSER', 'cli-ops');
  });

  it('takes the server from REDIS_URL when --url is not given', async () => {
    const client = await ctx.client({ clientId: 'cli-env' });
    const name = ctx.uniqueName('env');
    await client.lock(name).acquire({ owner: 'job-1' });
    const shown = await runBin(['show', name], { REDIS_URL: urlOf(ctx.backend()) });
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    expect(shown.stdout).toContain('cli-env');
    // --url wins over REDIS_URL.
    const closed = await runBin(['show', name, '--url', urlOf(ctx.backend())], { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(closed.code).toBe(0);
  });

  it('takes the password from DEADBOLT_PASSWORD or --password-file, never needing it in the URL', async () => {
    const [fromVariable, fromFile, wrongFile, wrongVariable] = await Promise.all([
      runBin(['ls', 'none:*', '--url', userUrl()], { DEADBOLT_PASSWORD: 'ops-secret' }),
      runBin(['ls', 'none:*', '--password-file', fileWith('password', 'ops-secret\n')], { REDIS_URL: userUrl() }),
      runBin(['ls', 'none:*', '--url', userUrl(), '--password-file', fileWith('wrong', 'not-it\n')]),
      runBin(['ls', 'none:*', '--url', userUrl()], { DEADBOLT_PASSWORD: 'not-it' }),
    ]);
    expect([fromVariable.code, fromVariable.stderr]).toEqual([0, '']);
    expect([fromFile.code, fromFile.stderr]).toEqual([0, '']);
    for (const refused of [wrongFile, wrongVariable]) {
      expect(refused.code).toBe(4);
      expect(refused.stderr).toMatch(/^deadbolt: authentication failed: WRONGPASS/);
    }
  });

  it('refuses a password given twice, and a file it cannot read, as bad command lines (exit 2)', async () => {
    const inUrl = new URL(userUrl());
    inUrl.password = 'ops-secret';
    const results = await Promise.all([
      runBin(['ls', '--url', inUrl.toString(), '--password-file', fileWith('twice', 'ops-secret\n')]),
      runBin(['ls', '--url', userUrl(), '--password-file', join(files, 'missing')]),
      runBin(['ls', '--url', userUrl(), '--password-file', fileWith('empty', '\n')]),
    ]);
    expect(results.map((result) => result.code)).toEqual([2, 2, 2]);
    for (const result of results) oneErrorLine(result.stderr);
    const [twice, missing, empty] = results.map((result) => result.stderr);
    expect(twice).toContain('the password is given twice');
    expect(twice).not.toContain('ops-secret');
    expect(missing).toContain(`cannot read --password-file ${join(files, 'missing')}: ENOENT`);
    expect(empty).toContain('is empty');
  });
});

describe('TLS', () => {
  // A server that checks its clients' certificates too (tls-auth-clients).
  let server: TlsStandaloneHandle;
  beforeAll(async () => {
    server = await startTlsStandalone({ authClients: true });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('trusts the CA of --cacert and presents the certificate of --cert and --key', async () => {
    const { caFile, certFile, keyFile } = server.certificates;
    const client = ['--cert', certFile, '--key', keyFile];
    const [trusted, unchecked, unknownCa, noClientCertificate] = await Promise.all([
      runBin(['ls', '--url', server.url, '--cacert', caFile, ...client]),
      runBin(['ls', '--url', server.url, '--insecure', ...client]),
      runBin(['ls', '--url', server.url, ...client]),
      runBin(['ls', '--url', server.url, '--cacert', caFile]),
    ]);
    expect([trusted.code, trusted.stderr]).toEqual([0, '']);
    expect([unchecked.code, unchecked.stderr]).toEqual([0, '']);
    for (const refused of [unknownCa, noClientCertificate]) {
      expect(refused.code).toBe(6);
      oneErrorLine(refused.stderr);
    }
    expect(unknownCa.stderr).toMatch(/^deadbolt: cannot reach rediss:\/\/127\.0\.0\.1:\d+: .*certificate/);
  });

  it('refuses TLS options without rediss://, and a certificate without its key (exit 2)', async () => {
    const { caFile, certFile } = server.certificates;
    const results = await Promise.all([
      runBin(['ls', '--url', `redis://${server.tlsAddress.host}:${server.tlsAddress.port}`, '--cacert', caFile]),
      runBin(['ls', '--url', server.url, '--cert', certFile]),
    ]);
    expect(results.map((result) => [result.code, result.stdout])).toEqual([
      [2, ''],
      [2, ''],
    ]);
    const [plain, keyless] = results.map((result) => result.stderr);
    expect(plain).toBe('deadbolt: TLS settings (--cacert, --cert, --key, --insecure) need a rediss:// URL\n');
    expect(keyless).toContain('a client certificate needs its key');
  });
});

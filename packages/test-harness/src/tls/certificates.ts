import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How long the generated certificates are valid, in days: one test run needs far less. */
const VALID_DAYS = '2';
/** A P-256 key is generated in milliseconds, where RSA would take a noticeable part of a second. */
const KEY_ARGS = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'] as const;
const CERT_DIR_PREFIX = 'deadbolt-tls-';

/**
 * A certificate authority and a server certificate it signed for `127.0.0.1` and `localhost`,
 * made by {@link tlsCertificates}. The files are what redis-server reads; `ca` is what a driver
 * trusts (ioredis `tls: { ca }`, node-redis `socket: { tls: true, ca }`).
 */
export interface TlsCertificates {
  /** The directory holding the files; removed when the process exits. */
  readonly dir: string;
  /** The CA certificate file (`--tls-ca-cert-file`). */
  readonly caFile: string;
  /** The server certificate file (`--tls-cert-file`). */
  readonly certFile: string;
  /** The server key file (`--tls-key-file`). */
  readonly keyFile: string;
  /** The CA certificate in PEM, for the clients. */
  readonly ca: string;
}

let generated: Promise<TlsCertificates> | undefined;

/**
 * Generates the certificates with `openssl` into a temporary directory, once per process (every
 * later call gets the same ones), and removes them when the process exits. A failed generation is
 * tried again on the next call.
 */
export function tlsCertificates(): Promise<TlsCertificates> {
  generated ??= generate();
  generated.catch(() => (generated = undefined));
  return generated;
}

async function generate(): Promise<TlsCertificates> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), CERT_DIR_PREFIX));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string) => path.join(dir, name);
  try {
    await openssl([
      'req',
      '-x509',
      ...KEY_ARGS,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-days',
      VALID_DAYS,
      '-subj',
      '/CN=deadbolt-test-ca',
    ]);
    await openssl([
      'req',
      ...KEY_ARGS,
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
      '-subj',
      '/CN=localhost',
    ]);
    fs.writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    await openssl([
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.crt'),
      '-days',
      VALID_DAYS,
      '-extfile',
      file('san.cnf'),
    ]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    caFile: file('ca.crt'),
    certFile: file('server.crt'),
    keyFile: file('server.key'),
    ca: fs.readFileSync(file('ca.crt'), 'utf8'),
  };
}

async function openssl(args: readonly string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (error) {
    const { stderr = '' } = error as { stderr?: string };
    throw new Error(`openssl ${args[0] ?? ''} failed: ${(error as Error).message}\n${stderr}`, {
      cause: error,
    });
  }
}

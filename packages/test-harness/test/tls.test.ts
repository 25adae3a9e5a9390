import tls from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { startTlsCluster, startTlsStandalone, tlsCertificates, type TlsAddress } from '../src/index.js';

/** Sends PING over TLS, trusting only the harness's CA, and resolves with the raw reply. */
function pingOverTls(address: TlsAddress, ca: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ ...address, ...(ca === undefined ? {} : { ca }), servername: 'localhost' }, () =>
      socket.write('PING\r\n'),
    );
    socket.once('data', (chunk: Buffer) => {
      resolve(chunk.toString('utf8'));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('TLS servers', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });

  it('generates the certificates once per process', async () => {
    const [first, second] = await Promise.all([tlsCertificates(), tlsCertificates()]);
    expect(second).toBe(first);
    expect(first.ca).toContain('BEGIN CERTIFICATE');
  });

  it('a standalone server answers TLS clients on its TLS port and the harness on its plain port', async () => {
    const server = await startTlsStandalone();
    stops.push(() => server.stop());
    expect(server.url).toBe(`rediss://127.0.0.1:${server.tlsAddress.port}`);
    expect(await pingOverTls(server.tlsAddress, server.certificates.ca)).toBe('+PONG\r\n');
    expect(await server.node.command('PING')).toBe('PONG');
  });

  it('a client that trusts only the system CAs refuses the server', async () => {
    const server = await startTlsStandalone();
    stops.push(() => server.stop());
    await expect(pingOverTls(server.tlsAddress, undefined)).rejects.toThrow(/self-signed|certificate/i);
  });

  it('a cluster announces its TLS ports to TLS clients', async () => {
    const handle = await startTlsCluster();
    stops.push(() => handle.stop());
    const [seed] = handle.tlsStartupNodes;
    if (seed === undefined) throw new Error('no TLS seed');
    const tlsPorts = handle.tlsStartupNodes.map((node) => node.port);
    const plainPorts = handle.cluster.nodes.map((node) => node.port);
    expect(tlsPorts.some((port) => plainPorts.includes(port))).toBe(false);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect({ ...seed, ca: handle.certificates.ca, servername: 'localhost' }, () =>
        socket.write('CLUSTER SLOTS\r\n'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (tlsPorts.every((port) => text.includes(`:${port}\r\n`))) {
          resolve(text);
          socket.destroy();
        }
      });
      socket.once('error', reject);
    });
    expect(plainPorts.some((port) => reply.includes(`:${port}\r\n`))).toBe(false);
  });
});

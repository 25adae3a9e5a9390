import {
  asArray,
  type ClusterHandle,
  type ClusterOptions,
  pickFreePort,
  type RedisNode,
  requireExecutable,
  startCluster,
  startProcessNode,
} from '@deadbolt/testing/servers';
import { tlsCertificates, type TlsCertificates } from './certificates.js';

/** Options of {@link startTlsStandalone} and {@link startTlsCluster}. */
export interface TlsOptions {
  /**
   * Whether the servers ask clients for a certificate (`--tls-auth-clients`). Default `false`:
   * clients check the server's certificate, the server checks none.
   */
  readonly authClients?: boolean;
  /** More redis-server arguments for every server. */
  readonly args?: readonly string[];
}

/** A host and the port a TLS client connects to. */
export interface TlsAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * A standalone server that takes TLS clients on `tlsAddress`, from {@link startTlsStandalone}.
 * Its plain port (`node.port`) stays open on 127.0.0.1 for the harness's own commands
 * (`node.command`, fault injection); the clients under test use `tlsAddress` only.
 */
export interface TlsStandaloneHandle {
  readonly node: RedisNode;
  readonly tlsAddress: TlsAddress;
  /** `rediss://127.0.0.1:<tls port>`. */
  readonly url: string;
  readonly certificates: TlsCertificates;
  stop(): Promise<void>;
}

/**
 * A 3-master cluster whose nodes take TLS clients and talk TLS among themselves
 * (`--tls-cluster yes`, `--tls-replication yes`), from {@link startTlsCluster}. A TLS client asking
 * for the slot map is told the TLS ports, a plain client the plain ones, so the harness manages
 * the cluster over the plain ports as usual while the clients under test use TLS throughout.
 */
export interface TlsClusterHandle {
  readonly cluster: ClusterHandle;
  /** Seed addresses for a TLS cluster client: every node's TLS port. */
  readonly tlsStartupNodes: readonly TlsAddress[];
  readonly certificates: TlsCertificates;
  stop(): Promise<void>;
}

/** Starts a standalone server with a TLS port (certificates from {@link tlsCertificates}). */
export async function startTlsStandalone(options: TlsOptions = {}): Promise<TlsStandaloneHandle> {
  requireExecutable('redis-server', 'startTlsStandalone()');
  const certificates = await tlsCertificates();
  const node = await startProcessNode({
    args: [...tlsServerArgs(certificates, options), ...(await tlsPortArgs()), ...(options.args ?? [])],
  });
  const tlsAddress = await tlsAddressOf(node);
  return {
    node,
    tlsAddress,
    url: `rediss://${tlsAddress.host}:${tlsAddress.port}`,
    certificates,
    stop: () => node.stop(),
  };
}

/** Starts a TLS cluster as {@link startCluster} does (`replicas`, `nodeTimeoutMs` as there). */
export async function startTlsCluster(
  options: TlsOptions & Pick<ClusterOptions, 'replicas' | 'nodeTimeoutMs'> = {},
): Promise<TlsClusterHandle> {
  const certificates = await tlsCertificates();
  const args = [
    ...tlsServerArgs(certificates, options),
    '--tls-cluster',
    'yes',
    '--tls-replication',
    'yes',
    ...(options.args ?? []),
  ];
  const cluster = await startCluster({ ...options, args, nodeArgs: tlsPortArgs });
  try {
    const tlsStartupNodes = await Promise.all(cluster.nodes.map(tlsAddressOf));
    return { cluster, tlsStartupNodes, certificates, stop: () => cluster.stop() };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** The TLS port a harness node listens on, read from the node itself (`CONFIG GET tls-port`). */
async function tlsAddressOf(node: RedisNode): Promise<TlsAddress> {
  const [, value] = asArray(await node.command('CONFIG', 'GET', 'tls-port'));
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`redis-server on port ${node.port} has no TLS port`);
  return { host: node.host, port };
}

function tlsServerArgs(certificates: TlsCertificates, options: TlsOptions): string[] {
  return [
    '--tls-cert-file',
    certificates.certFile,
    '--tls-key-file',
    certificates.keyFile,
    '--tls-ca-cert-file',
    certificates.caFile,
    '--tls-auth-clients',
    options.authClients === true ? 'yes' : 'no',
  ];
}

/** A free port (and a free bus port above it, for `--tls-cluster`) for one server's TLS listener. */
async function tlsPortArgs(): Promise<readonly string[]> {
  return ['--tls-port', String(await pickFreePort())];
}

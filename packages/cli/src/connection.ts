import { isIP } from 'node:net';
import { Cluster, Redis } from 'ioredis';
import { CliError, toCliError } from './errors.js';
import { describeAddress, parseRedisUrl, type ServerAddress } from './url.js';

/** A connection to a standalone server or a cluster, with what the commands need of each. */
export interface Connection {
  /** Where it is connected, as parsed from the URL. */
  readonly address: ServerAddress;
  /** Routes each command by its key: a `Redis`, or a `Cluster` for a cluster. */
  readonly client: Redis | Cluster;
  /** Whether the server is a cluster. */
  readonly isCluster: boolean;
  /** One connection per master: a SCAN or PUBSUB must ask each, as each has its own keyspace. */
  masters(): readonly Redis[];
  /** Closes every connection. */
  close(): Promise<void>;
}

/** Options of {@link connect}. */
export interface ConnectOptions {
  /** How long to wait for the server to answer, in ms (default 5 000). */
  readonly connectTimeout?: number;
  /** The password, when the URL carries none: a URL is seen in `ps` and in shell history. */
  readonly password?: string;
  /** TLS settings for a `rediss://` URL; refused with a `redis://` one. */
  readonly tls?: TlsSettings;
  /**
   * Aborting it drops every connection at once: a call waiting for Redis then fails, and so does a
   * connection still being made, with `interrupted`.
   */
  readonly signal?: AbortSignal;
}

/** How to talk TLS to the server, beyond what `rediss://` says. */
export interface TlsSettings {
  /** The CA certificates (PEM) that signed the server's, replacing Node's own list. */
  readonly ca?: string;
  /** A client certificate (PEM), for a server that asks for one (`tls-auth-clients`); with `key`. */
  readonly cert?: string;
  /** The client certificate's private key (PEM); with `cert`. */
  readonly key?: string;
  /** Accept any server certificate, unchecked: for a test server only. */
  readonly insecure?: boolean;
}

/**
 * Connects to the server at `url` and finds out whether it is a cluster (`INFO cluster`); for a
 * cluster, connects to every master through a `Cluster` client seeded with that node.
 *
 * @throws {@link CliError} `bad-url`, `usage` (TLS settings with a `redis://` URL, a certificate
 *   without its key), `unreachable`, `auth`, `no-permission` or `interrupted`
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  const address = withPassword(parseRedisUrl(url), options.password);
  const redisOptions = optionsFor(address, options.connectTimeout ?? 5_000, options.tls);
  const probe = new Redis({ ...redisOptions, host: address.host, port: address.port, db: address.db });
  // The socket's own error (ECONNREFUSED, a TLS failure) says more than the driver's rejection,
  // "Connection is closed."; it is reported instead.
  let socketError: unknown;
  probe.on('error', (error: unknown) => (socketError ??= error));
  const stopProbe = onAbort(options.signal, () => probe.disconnect());
  let clusterEnabled: boolean;
  try {
    await probe.connect();
    clusterEnabled = /cluster_enabled:1/.test(await probe.info('cluster'));
  } catch (error) {
    dropFailed(probe);
    throw interruptedOr(options.signal, connectError(socketError ?? error, address));
  } finally {
    stopProbe();
  }
  if (!clusterEnabled) return standaloneConnection(address, probe, options.signal);
  probe.disconnect();
  return clusterConnection(address, redisOptions, options.signal);
}

function withPassword(address: ServerAddress, password: string | undefined): ServerAddress {
  return password === undefined ? address : { ...address, password };
}

function standaloneConnection(address: ServerAddress, client: Redis, signal: AbortSignal | undefined): Connection {
  const stop = onAbort(signal, () => client.disconnect());
  return {
    address,
    client,
    isCluster: false,
    masters: () => [client],
    close: async () => {
      stop();
      await quit(client);
    },
  };
}

async function clusterConnection(
  address: ServerAddress,
  redisOptions: ReturnType<typeof optionsFor>,
  signal: AbortSignal | undefined,
): Promise<Connection> {
  const cluster = new Cluster([{ host: address.host, port: address.port }], {
    redisOptions,
    lazyConnect: true,
    enableReadyCheck: true,
    // One failed attempt is an answer for a command-line tool; retrying would only hang it.
    clusterRetryStrategy: () => null,
  });
  cluster.on('error', ignore);
  const stop = onAbort(signal, () => cluster.disconnect());
  try {
    await cluster.connect();
  } catch (error) {
    stop();
    dropFailed(cluster);
    throw interruptedOr(signal, connectError(error, address));
  }
  return {
    address,
    client: cluster,
    isCluster: true,
    masters: () => cluster.nodes('master'),
    close: async () => {
      stop();
      await quit(cluster);
    },
  };
}

/** Calls `drop` when `signal` aborts (at once if it has); returns what stops listening. */
function onAbort(signal: AbortSignal | undefined, drop: () => void): () => void {
  if (signal === undefined) return ignore;
  if (signal.aborted) {
    drop();
    return ignore;
  }
  signal.addEventListener('abort', drop, { once: true });
  return () => signal.removeEventListener('abort', drop);
}

/** What a failure caused by the user's interruption is reported as: the interruption. */
function interruptedOr(signal: AbortSignal | undefined, error: CliError): CliError {
  return signal?.aborted === true ? new CliError('interrupted', 'interrupted', { cause: error }) : error;
}

// Typed by inference: ioredis's own option types do not survive exactOptionalPropertyTypes.
function optionsFor(address: ServerAddress, connectTimeout: number, tls: TlsSettings | undefined) {
  return {
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    ...(address.tls ? { tls: tlsOptions(address, tls ?? {}) } : refuseTls(tls)),
    lazyConnect: true,
    connectTimeout,
    // The ready check runs INFO, which a restricted ACL user may lack; INFO cluster is asked
    // explicitly instead, with its refusal reported as such.
    enableReadyCheck: false,
    // Fail fast instead of queueing commands while reconnecting: a stale view is worse than an error.
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  };
}

function tlsOptions(address: ServerAddress, tls: TlsSettings) {
  if ((tls.cert === undefined) !== (tls.key === undefined))
    throw new CliError('usage', 'a client certificate needs its key, and a key its certificate (--cert and --key)');
  return {
    // SNI names a host; Node refuses an IP address there (RFC 6066).
    ...(isIP(address.host) === 0 ? { servername: address.host } : {}),
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.insecure === true ? { rejectUnauthorized: false } : {}),
  };
}

// TLS settings with a plain URL would be ignored, and the connection made in the clear.
function refuseTls(tls: TlsSettings | undefined): Record<string, never> {
  if (tls !== undefined && Object.values(tls).some((value) => value !== undefined && value !== false))
    throw new CliError('usage', 'TLS settings (--cacert, --cert, --key, --insecure) need a rediss:// URL');
  return {};
}

function connectError(error: unknown, address: ServerAddress): CliError {
  const mapped = toCliError(error, `connect to ${describeAddress(address)}`);
  if (mapped.code !== 'redis' && mapped.code !== 'unreachable') return mapped;
  const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
  return new CliError('unreachable', `cannot reach ${describeAddress(address)}: ${reason}`, { cause: error });
}

async function quit(client: Redis | Cluster): Promise<void> {
  await client.quit().then(ignore, () => client.disconnect());
}

// A client whose connection failed has ended already; disconnect() would then start ioredis's
// 2 s socket-destroy timer and keep the process alive for nothing.
function dropFailed(client: Redis | Cluster): void {
  if (client.status !== 'end') client.disconnect();
}

function ignore(): void {}

/** Runs one Redis call, turning a failure into a {@link CliError} that says what was being done. */
export async function redisCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toCliError(error, what);
  }
}

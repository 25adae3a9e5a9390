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
}

/**
 * Connects to the server at `url` and finds out whether it is a cluster (`INFO cluster`); for a
 * cluster, connects to every master through a `Cluster` client seeded with that node.
 *
 * @throws {@link CliError} `bad-url`, `unreachable`, `auth` or `no-permission`
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<Connection> {
  const address = parseRedisUrl(url);
  const redisOptions = optionsFor(address, options.connectTimeout ?? 5_000);
  const probe = new Redis({ ...redisOptions, host: address.host, port: address.port, db: address.db });
  // The socket's own error (ECONNREFUSED, a TLS failure) says more than the driver's rejection,
  // "Connection is closed."; it is reported instead.
  let socketError: unknown;
  probe.on('error', (error: unknown) => (socketError ??= error));
  let clusterEnabled: boolean;
  try {
    await probe.connect();
    clusterEnabled = /cluster_enabled:1/.test(await probe.info('cluster'));
  } catch (error) {
    dropFailed(probe);
    throw connectError(socketError ?? error, address);
  }
  if (!clusterEnabled) return standaloneConnection(address, probe);
  probe.disconnect();
  return clusterConnection(address, redisOptions);
}

function standaloneConnection(address: ServerAddress, client: Redis): Connection {
  return { address, client, isCluster: false, masters: () => [client], close: () => quit(client) };
}

async function clusterConnection(
  address: ServerAddress,
  redisOptions: ReturnType<typeof optionsFor>,
): Promise<Connection> {
  const cluster = new Cluster([{ host: address.host, port: address.port }], {
    redisOptions,
    lazyConnect: true,
    enableReadyCheck: true,
    // One failed attempt is an answer for a command-line tool; retrying would only hang it.
    clusterRetryStrategy: () => null,
  });
  cluster.on('error', ignore);
  try {
    await cluster.connect();
  } catch (error) {
    dropFailed(cluster);
    throw connectError(error, address);
  }
  return {
    address,
    client: cluster,
    isCluster: true,
    masters: () => cluster.nodes('master'),
    close: () => quit(cluster),
  };
}

// Typed by inference: ioredis's own option types do not survive exactOptionalPropertyTypes.
function optionsFor(address: ServerAddress, connectTimeout: number) {
  return {
    ...(address.username === undefined ? {} : { username: address.username }),
    ...(address.password === undefined ? {} : { password: address.password }),
    // SNI names a host; Node refuses an IP address there (RFC 6066).
    ...(address.tls ? { tls: isIP(address.host) === 0 ? { servername: address.host } : {} } : {}),
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

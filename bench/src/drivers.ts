// The driver clients every contender runs on, made the same way for all of them, with what the
// benchmark needs from each: the floor's trivial script call and a count of commands sent.
import { createHash } from 'node:crypto';
import { GlideClient, type GlideClientConfiguration } from '@valkey/valkey-glide';
import { Redis } from 'ioredis';
import { createClient } from 'redis';

/** The Redis drivers the benchmark runs contenders on. */
export type DriverName = 'ioredis' | 'node-redis' | 'valkey-glide';

/** A host and port of one redis-server. */
export interface Address {
  readonly host: string;
  readonly port: number;
}

/** A node-redis client as {@link connect} makes it. */
export type NodeRedisClient = ReturnType<typeof createNodeRedis>;

/** A connected ioredis client, as the benchmark keeps it. */
export interface IoredisConnection {
  readonly driver: 'ioredis';
  readonly client: Redis;
  readonly counter: CommandCounter;
}

/** A connected node-redis client, as the benchmark keeps it. */
export interface NodeRedisConnection {
  readonly driver: 'node-redis';
  readonly client: NodeRedisClient;
  readonly counter: CommandCounter;
}

/** A connected Valkey GLIDE client, as the benchmark keeps it, with the configuration it was made with. */
export interface GlideConnection {
  readonly driver: 'valkey-glide';
  readonly client: GlideClient;
  readonly connection: GlideClientConfiguration;
  readonly counter: CommandCounter;
}

/** A connected driver client, as the benchmark keeps it. */
export type Connection = IoredisConnection | NodeRedisConnection | GlideConnection;

type Uncounted<C extends Connection> = Omit<C, 'counter'>;

interface SendsCommands {
  sendCommand: (...args: unknown[]) => unknown;
}

/** How many commands one client has sent since it was connected. */
export interface CommandCounter {
  sent: number;
}

const TRIVIAL_SCRIPT = 'return 1';
const TRIVIAL_SHA = createHash('sha1').update(TRIVIAL_SCRIPT).digest('hex');

/** Connects a client of `driver` to `address`, its trivial script loaded. */
export function connect(driver: 'ioredis', address: Address): Promise<IoredisConnection>;
export function connect(driver: 'node-redis', address: Address): Promise<NodeRedisConnection>;
export function connect(driver: 'valkey-glide', address: Address): Promise<GlideConnection>;
export function connect(driver: DriverName, address: Address): Promise<Connection>;
export async function connect(driver: DriverName, address: Address): Promise<Connection> {
  if (driver === 'valkey-glide') {
    const connection: GlideClientConfiguration = { addresses: [{ host: address.host, port: address.port }] };
    return adoptGlide(await GlideClient.createClient(connection), connection);
  }
  if (driver === 'ioredis') {
    const client = new Redis({ host: address.host, port: address.port, lazyConnect: true });
    client.on('error', ignore);
    await client.connect();
    return adopt({ driver, client });
  }
  const client = createNodeRedis(address);
  client.on('error', ignore);
  await client.connect();
  return adopt({ driver, client });
}

/**
 * Takes over a client made elsewhere (a library that opens its own): counts its commands from
 * now on and loads the trivial script on it.
 */
export function adopt(connection: Uncounted<IoredisConnection>): Promise<IoredisConnection>;
export function adopt(connection: Uncounted<NodeRedisConnection>): Promise<NodeRedisConnection>;
export async function adopt(connection: Uncounted<IoredisConnection | NodeRedisConnection>): Promise<Connection> {
  const counter: CommandCounter = { sent: 0 };
  // Every command of either driver goes through the client's sendCommand (node-redis: the one of
  // the client behind its option proxies); counting there costs one increment, where server-side
  // stats cannot tell a client's commands from a script's.
  const outer = connection.client as unknown as SendsCommands & { _self?: SendsCommands };
  const client = outer._self ?? outer;
  const send = client.sendCommand.bind(client);
  client.sendCommand = (...args: unknown[]) => {
    counter.sent++;
    return send(...args);
  };
  const counted = { ...connection, counter } as IoredisConnection | NodeRedisConnection;
  await (counted.driver === 'ioredis'
    ? counted.client.script('LOAD', TRIVIAL_SCRIPT)
    : counted.client.scriptLoad(TRIVIAL_SCRIPT));
  return counted;
}

/**
 * Takes over a GLIDE client: counts the calls of the methods the contenders use (`customCommand`,
 * through which Deadbolt and redlock-universal send their scripts, and `set`, `get`, `del`), and
 * loads the trivial script on it. GLIDE has no one method every command goes through.
 */
async function adoptGlide(client: GlideClient, connection: GlideClientConfiguration): Promise<GlideConnection> {
  const counter: CommandCounter = { sent: 0 };
  const counted = client as unknown as Record<'customCommand' | 'set' | 'get' | 'del', (...args: unknown[]) => unknown>;
  for (const method of ['customCommand', 'set', 'get', 'del'] as const) {
    const send = counted[method].bind(client);
    counted[method] = (...args: unknown[]) => {
      counter.sent++;
      return send(...args);
    };
  }
  await client.customCommand(['SCRIPT', 'LOAD', TRIVIAL_SCRIPT]);
  return { driver: 'valkey-glide', client, connection, counter };
}

/** One EVALSHA of a trivial script on the connection: the unit every floor is made of. */
export function trivialScript(connection: Connection): Promise<unknown> {
  if (connection.driver === 'valkey-glide') return connection.client.customCommand(['EVALSHA', TRIVIAL_SHA, '0']);
  return connection.driver === 'ioredis'
    ? connection.client.evalsha(TRIVIAL_SHA, 0)
    : connection.client.evalSha(TRIVIAL_SHA);
}

/** Closes a connection the benchmark made. */
export async function disconnect(connection: Connection): Promise<void> {
  if (connection.driver === 'valkey-glide') connection.client.close();
  else if (connection.driver === 'ioredis') await connection.client.quit().catch(() => connection.client.disconnect());
  else await connection.client.close().catch(() => connection.client.destroy());
}

/** Connects one client of `driver` to each address, in order. */
export function connectAll(driver: 'ioredis', addresses: readonly Address[]): Promise<IoredisConnection[]>;
export function connectAll(driver: 'node-redis', addresses: readonly Address[]): Promise<NodeRedisConnection[]>;
export function connectAll(driver: 'valkey-glide', addresses: readonly Address[]): Promise<GlideConnection[]>;
export function connectAll(driver: DriverName, addresses: readonly Address[]): Promise<Connection[]>;
export function connectAll(driver: DriverName, addresses: readonly Address[]): Promise<Connection[]> {
  return Promise.all(addresses.map((address) => connect(driver, address)));
}

/** Closes connections the benchmark made. */
export async function disconnectAll(connections: readonly Connection[]): Promise<void> {
  await Promise.all(connections.map(disconnect));
}

function createNodeRedis(address: Address) {
  return createClient({ socket: { host: address.host, port: address.port } });
}

function ignore(): void {}

import fs from 'node:fs';
import net from 'node:net';

/** Cluster bus ports are the client port plus this, so a client port must leave room for it. */
const BUS_PORT_OFFSET = 10_000;

const LOWEST_PORT = 20_000;
const HIGHEST_PORT = 65_535 - BUS_PORT_OFFSET;
const ATTEMPTS = 200;
/** How many parts the range is cut into, one per vitest worker running at once (see {@link workerPortRange}). */
const WORKER_SLICES = 4;

/**
 * Ports this process handed out are never handed out again by it: two servers starting at once
 * cannot get the same one, and a killed node's port stays free for its restart.
 */
const handedOut = new Set<number>();

/**
 * Picks a random port on 127.0.0.1, in this worker's part of the range, where both the port and
 * its cluster bus port (port + 10000) can be bound right now. Another process may still take it
 * before redis-server binds, so callers retry on "Address already in use".
 */
export async function pickFreePort(): Promise<number> {
  const [low, high] = workerPortRange(portRange(), process.env['VITEST_POOL_ID']);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(port)) continue;
    if ((await canBind(port)) && (await canBind(port + BUS_PORT_OFFSET))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`@deadbolt/testing: found no free port pair in ${low}..${high} after ${ATTEMPTS} attempts`);
}

/**
 * Outgoing connections take local ports from the kernel's ephemeral range, and one of them
 * could sit on a server's port while that server is down for a restart. So, when the range is
 * known and leaves room, keep the port and its bus port below it.
 */
export function portRange(): [number, number] {
  try {
    const [ephemeralLow] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (ephemeralLow !== undefined) {
      const high = ephemeralLow - 1 - BUS_PORT_OFFSET;
      if (high - LOWEST_PORT >= 1000) return [LOWEST_PORT, Math.min(high, HIGHEST_PORT)];
    }
  } catch {
    // not Linux: use the whole range and rely on the startup retry
  }
  return [LOWEST_PORT, HIGHEST_PORT];
}

/**
 * The part of `range` a process picks ports from. Each vitest worker is a process with its own
 * `handedOut`, so another worker could start a server on the port a killed node left free for
 * its restart (seen in CI: the restart failed with "Address already in use"). Workers running at
 * once have distinct pool ids (`VITEST_POOL_ID`, 1 to maxWorkers), so each picks from a slice of
 * its own; outside vitest (no pool id), the whole range.
 */
export function workerPortRange([low, high]: readonly [number, number], poolId: string | undefined): [number, number] {
  const id = Number(poolId);
  if (poolId === undefined || !Number.isInteger(id) || id < 1) return [low, high];
  const size = Math.floor((high - low + 1) / WORKER_SLICES);
  const first = low + ((id - 1) % WORKER_SLICES) * size;
  return [first, first + size - 1];
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      server.close(() => resolve(true));
    });
  });
}

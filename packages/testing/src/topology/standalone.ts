import { startContainerNode } from '../node/container-node.js';
import { startProcessNode } from '../node/process-node.js';
import type { RedisNode } from '../node/redis-node.js';
import { hasRedisServer } from '../server/binaries.js';

/** Options of {@link startStandalone}. */
export interface StandaloneOptions {
  /** More redis-server arguments, e.g. `['--maxmemory', '10mb']`. */
  readonly args?: readonly string[];
}

/**
 * Starts a standalone server of the test's own, for tests that inject faults. Uses the local
 * redis-server binary, or a container when there is none, and never REDIS_URL.
 */
export function startStandalone(options: StandaloneOptions = {}): Promise<RedisNode> {
  return startOwn('startStandalone()', options.args ?? []);
}

function startOwn(what: string, args: readonly string[]): Promise<RedisNode> {
  if (hasRedisServer()) return startProcessNode({ args });
  return startContainerNode(what, args);
}

/** The standalone server a test should use, from {@link useStandalone}. */
export interface StandaloneTarget {
  /** `redis://host:port` of the server. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The server's handle when it was started for the test; `undefined` when it came from REDIS_URL. */
  readonly node: RedisNode | undefined;
  /** Stops the server if it was started for the test; leaves a REDIS_URL server alone. */
  stop(): Promise<void>;
}

/**
 * The server for standalone tests that inject no faults: the one named by the REDIS_URL
 * environment variable when set, else one started for the test (as {@link startStandalone}).
 */
export async function useStandalone(): Promise<StandaloneTarget> {
  const given = process.env['REDIS_URL'];
  if (given !== undefined && given !== '') {
    const parsed = new URL(given);
    return {
      url: given,
      host: parsed.hostname,
      port: parsed.port === '' ? 6379 : Number(parsed.port),
      node: undefined,
      stop: () => Promise.resolve(),
    };
  }
  const node = await startOwn('useStandalone()', []);
  return { url: node.url, host: node.host, port: node.port, node, stop: () => node.stop() };
}

// The driver client a spec names, made by the adapter's own factory.
import type { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import type {
  GlideClient,
  GlideClientConfiguration,
  GlideClusterClient,
  GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import type { Cluster, Redis } from 'ioredis';
import type { ConnectionSpec, DriverMajor, RespVersion } from './ConnectionSpec.js';
import { connectGlide } from './glideClient.js';
import { connectIoredis } from './ioredisClient.js';
import { respVersions } from './matrix.js';
import { connectNodeRedis } from './nodeRedisClient.js';

/** A connected driver client, tagged with its adapter so that the right executor wraps it. */
export type DriverClient = (
  | { readonly kind: 'ioredis'; readonly client: Redis | Cluster }
  | { readonly kind: 'node-redis'; readonly client: Parameters<typeof nodeRedisExecutor>[0] }
  | {
      readonly kind: 'valkey-glide';
      readonly client: GlideClient | GlideClusterClient;
      readonly connection: GlideClientConfiguration | GlideClusterClientConfiguration;
    }
) & { readonly ping: () => Promise<unknown>; readonly close: () => Promise<void> };

/** Connects the client of the spec's adapter and topology, speaking `resp` (the driver's default when absent). */
export async function connectClient(
  spec: ConnectionSpec,
  resp: RespVersion | undefined,
  major: DriverMajor,
): Promise<DriverClient> {
  const [first] = spec.nodes;
  if (first === undefined) throw new Error('ConnectionSpec.nodes is empty');
  if (resp !== undefined && !respVersions(spec.adapter, major).includes(resp)) {
    throw new Error(`${spec.adapter} ${major} cannot speak RESP${resp}`);
  }
  if (spec.adapter === 'valkey-glide') return connectGlide(spec, resp);
  if (spec.adapter === 'ioredis') return connectIoredis(spec, first, resp, major);
  return connectNodeRedis(spec, first, resp, major);
}

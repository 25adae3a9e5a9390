// Compile-time check, run by `tsc --noEmit`: both GLIDE client classes are accepted without casts,
// each with the configuration of its own kind. Nothing here runs.
import {
  GlideClient,
  GlideClusterClient,
  type GlideClientConfiguration,
  type GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import { valkeyGlideExecutor } from '../src/index.js';

export async function acceptsEveryClient(): Promise<void> {
  const standalone: GlideClientConfiguration = { addresses: [{ host: 'localhost', port: 6379 }], databaseId: 1 };
  const cluster: GlideClusterClientConfiguration = { addresses: [{ host: 'localhost', port: 7000 }], useTLS: true };
  valkeyGlideExecutor(await GlideClient.createClient(standalone), { connection: standalone });
  valkeyGlideExecutor(await GlideClusterClient.createClient(cluster), { connection: cluster, subscriberName: 'x' });
}

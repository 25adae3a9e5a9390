import type {
  GlideClient,
  GlideClientConfiguration,
  GlideClusterClient,
  GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';

/** The client the application gives the executor: a standalone `GlideClient` or a `GlideClusterClient`. */
export type ValkeyGlideClient = GlideClient | GlideClusterClient;

/**
 * The configuration the application created its client with (`GlideClient.createClient(config)`).
 * A GLIDE client cannot be duplicated and does not expose its configuration, so the executor is
 * given it to open its subscriber clients with the same addresses, credentials, TLS and timeouts.
 */
export type ValkeyGlideConnection = GlideClientConfiguration | GlideClusterClientConfiguration;

/**
 * A subscriber client the executor opened: the same class as the application's client, made from
 * its configuration (see `subscriberConfig.ts`).
 */
export type ValkeyGlideSubscriber = ValkeyGlideClient;

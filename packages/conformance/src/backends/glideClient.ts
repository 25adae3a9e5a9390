// Valkey GLIDE clients, standalone or cluster (GLIDE for Node.js has no Sentinel client).
import {
  GlideClient,
  GlideClusterClient,
  Logger,
  ProtocolVersion,
  type GlideClientConfiguration,
  type GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import type { ConnectionSpec, RespVersion } from './ConnectionSpec.js';
import type { DriverClient } from './driverClient.js';

/**
 * The `requestTimeout` of the suites' GLIDE clients. GLIDE's default of 250 ms fails a request
 * that a loaded machine answers late, and a request waits for a reconnect no longer than other
 * drivers' clients do (tests kill servers).
 */
export const GLIDE_REQUEST_TIMEOUT_MS = 5_000;

/**
 * A GLIDE client for the spec. GLIDE has no Sentinel client. A cluster reached through fault
 * proxies maps the announced addresses with GLIDE's `addressResolver`.
 */
export async function connectGlide(spec: ConnectionSpec, resp: RespVersion | undefined): Promise<DriverClient> {
  // GLIDE logs a warning for every error reply (each NOSCRIPT, each refused script the suites
  // provoke) to the console; errors only.
  Logger.setLoggerConfig('error');
  if (spec.topology === 'sentinel') throw new Error('Valkey GLIDE for Node.js has no Sentinel client');
  const addresses = spec.nodes.map(({ host, port }) => ({ host, port }));
  const map = spec.addressMap;
  const base = {
    addresses,
    ...(resp === undefined ? {} : { protocol: resp === 2 ? ProtocolVersion.RESP2 : ProtocolVersion.RESP3 }),
    requestTimeout: GLIDE_REQUEST_TIMEOUT_MS,
    ...(map === undefined
      ? {}
      : {
          addressResolver: (host: string, port: number): [string, number] => {
            const target = map[`${host}:${port}`];
            return target === undefined ? [host, port] : [target.host, target.port];
          },
        }),
  };
  if (spec.topology === 'cluster') {
    const connection: GlideClusterClientConfiguration = base;
    const client = await GlideClusterClient.createClient(connection);
    return {
      kind: 'valkey-glide',
      client,
      connection,
      ping: () => client.customCommand(['PING']),
      close: () => Promise.resolve(client.close()),
    };
  }
  const connection: GlideClientConfiguration = base;
  const client = await GlideClient.createClient(connection);
  return {
    kind: 'valkey-glide',
    client,
    connection,
    ping: () => client.customCommand(['PING']),
    close: () => Promise.resolve(client.close()),
  };
}

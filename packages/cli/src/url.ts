import { CliError } from './errors.js';

/** The default server: the local one on Redis's standard port. */
export const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** Where and how to connect, parsed from a `redis://` or `rediss://` URL. */
export interface ServerAddress {
  readonly host: string;
  readonly port: number;
  readonly username?: string;
  readonly password?: string;
  /** The logical database (`/2` in the URL); ignored by a cluster, which has only 0. */
  readonly db: number;
  /** `rediss://`: connect over TLS. */
  readonly tls: boolean;
}

/**
 * Parses `redis://[user[:password]@]host[:port][/db]` (or `rediss://` for TLS). Checked here
 * rather than left to the driver, because ioredis reads a malformed URL as a host name and then
 * reports an unreachable server, which hides the typo.
 *
 * @throws {@link CliError} `bad-url` for anything else
 */
export function parseRedisUrl(url: string): ServerAddress {
  const shown = maskUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new CliError('bad-url', `not a URL: "${shown}" (expected redis://host:port or rediss://host:port)`, {
      cause: error,
    });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new CliError(
      'bad-url',
      `unsupported scheme "${parsed.protocol}" in "${shown}" (expected redis:// or rediss://)`,
    );
  }
  if (parsed.hostname === '') throw new CliError('bad-url', `no host in "${shown}"`);
  return {
    // An IPv6 literal comes bracketed from URL; the socket wants it bare.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsePort(parsed.port, shown),
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    db: parseDb(parsed.pathname, shown),
    tls: parsed.protocol === 'rediss:',
  };
}

function parsePort(port: string, url: string): number {
  if (port === '') return 6379;
  const value = Number(port);
  if (!Number.isInteger(value) || value < 1 || value > 65_535)
    throw new CliError('bad-url', `bad port "${port}" in "${url}"`);
  return value;
}

function parseDb(pathname: string, url: string): number {
  const db = pathname.replace(/^\//, '');
  if (db === '') return 0;
  if (!/^\d+$/.test(db))
    throw new CliError('bad-url', `bad database "${db}" in "${url}" (expected a number, as in redis://host:6379/2)`);
  return Number(db);
}

/**
 * `url` with its password replaced by `***`, for messages: the text as given, so that a URL too
 * malformed to parse is masked too. The password runs from the first `:` after the user name to the
 * last `@`: a password may hold an unencoded `/` or `@`, and masking too much hides no typo in
 * the host.
 */
export function maskUrl(url: string): string {
  return url.replace(/^([^/]*\/\/[^:/@]*:).*@/, '$1***@');
}

/** Where the address points, without its password, for messages. */
export function describeAddress(address: ServerAddress): string {
  const user = address.username === undefined ? '' : `${address.username}@`;
  return `${address.tls ? 'rediss' : 'redis'}://${user}${address.host}:${address.port}`;
}

import type { RespValue } from './protocol.js';

/**
 * Parses the `field:value` lines of an INFO or CLUSTER INFO reply into a map, skipping
 * `# Section` headers and blank lines.
 */
export function parseInfo(reply: RespValue): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of asText(reply).split('\r\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

/** Narrows a reply that must be a string (bulk or simple), failing loudly otherwise. */
export function asText(reply: RespValue): string {
  if (typeof reply !== 'string') throw new TypeError(`expected a string reply, got ${JSON.stringify(reply)}`);
  return reply;
}

/** Narrows a reply that must be an array. */
export function asArray(reply: RespValue): RespValue[] {
  if (!Array.isArray(reply)) throw new TypeError(`expected an array reply, got ${JSON.stringify(reply)}`);
  return reply;
}

/** Narrows a reply that must be an integer. */
export function asInteger(reply: RespValue): number {
  if (typeof reply !== 'number') throw new TypeError(`expected an integer reply, got ${JSON.stringify(reply)}`);
  return reply;
}

/**
 * Turns a GLIDE reply into the shapes core's commands read, the ones ioredis and node-redis give
 * under RESP2: strings for bulk and status replies (a `Buffer` from a client whose decoder is
 * `Bytes` is decoded as UTF-8), numbers for integers, `null` for nil, arrays for arrays. What only
 * RESP3 has is flattened the way RESP2 sends it: a map (GLIDE's `GlideRecord`, an array of
 * `{ key, value }`, or a `Map`) becomes `[key, value, key, value, ...]`, a set becomes an array.
 */
export function decodeReply(reply: unknown): unknown {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string' || typeof reply === 'number' || typeof reply === 'boolean' || typeof reply === 'bigint')
    return reply;
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (Array.isArray(reply))
    return reply.flatMap((item: unknown) =>
      isRecordEntry(item) ? [decodeReply(item.key), decodeReply(item.value)] : [decodeReply(item)],
    );
  if (reply instanceof Set) return [...reply].map(decodeReply);
  if (reply instanceof Map)
    return [...reply].flatMap(([key, value]: [unknown, unknown]) => [decodeReply(key), decodeReply(value)]);
  // A plain object: a map from an older GLIDE, field by field.
  if (typeof reply === 'object') return Object.entries(reply).flatMap(([key, value]) => [key, decodeReply(value)]);
  return reply;
}

/** One entry of a `GlideRecord`, GLIDE's form of a RESP3 map. */
function isRecordEntry(item: unknown): item is { key: unknown; value: unknown } {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || Buffer.isBuffer(item)) return false;
  const keys = Object.keys(item);
  return keys.length === 2 && keys.includes('key') && keys.includes('value');
}

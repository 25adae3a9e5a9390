import { MODE_FIELD, WRITER_FIELD_SUFFIX } from '@deadbolt/rwlock';
import type { Connection } from '../connection.js';
import { lockKeys } from '../keyNames.js';
import { ownerName, type Holder } from '../LockInfo.js';
import { remainingLeases } from '../snapshot.js';
import { holdCount, isOwnerField } from './exclusive.js';

/** A read-write lock hash, decoded: its mode and its owners' fields. */
export interface ReadWriteHash {
  readonly mode: 'read' | 'write';
  readonly writers: readonly Holder[];
  /** Readers without their holds' leases yet (see {@link withReadHoldLeases}). */
  readonly readers: readonly Holder[];
}

/**
 * Decodes a read-write lock hash (Redisson's layout): `mode` is `read` or `write`, the writer's
 * field is `<clientId>:<ownerId>:write`, a reader's is `<clientId>:<ownerId>`, each counting
 * holds. `undefined` when the hash has no valid `mode` or a field in no such form.
 */
export function decodeReadWrite(hash: Readonly<Record<string, string>>): ReadWriteHash | undefined {
  const mode = hash[MODE_FIELD];
  if (mode !== 'read' && mode !== 'write') return undefined;
  const writers: Holder[] = [];
  const readers: Holder[] = [];
  for (const [field, value] of Object.entries(hash)) {
    if (field === MODE_FIELD) continue;
    const holds = holdCount(value);
    if (!isOwnerField(field) || holds === undefined) return undefined;
    if (field.endsWith(WRITER_FIELD_SUFFIX))
      writers.push({ ...ownerName(field.slice(0, -WRITER_FIELD_SUFFIX.length)), field, role: 'writer', holds });
    else readers.push({ ...ownerName(field), role: 'reader', holds });
  }
  return { mode, writers, readers };
}

/**
 * Adds to each reader the remaining lease of each of its holds: hold `n` of a reader lives in its
 * own key, `{name}:<field>:rwlock_timeout:<n>`, whose TTL is that hold's lease.
 */
export async function withReadHoldLeases(
  connection: Connection,
  name: string,
  readers: readonly Holder[],
): Promise<Holder[]> {
  const keys = lockKeys(name);
  const holdKeys = readers.flatMap((reader) =>
    Array.from({ length: reader.holds }, (_, i) => keys.readHold(reader.field, i + 1)),
  );
  const leases = await remainingLeases(connection, holdKeys);
  let next = 0;
  return readers.map((reader) => ({ ...reader, holdTtls: leases.slice(next, (next += reader.holds)) }));
}

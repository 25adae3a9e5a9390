import type { RegisteredKind } from './RegisteredKind.js';
import { LOCK_GROUP_KINDS } from './lockGroupKinds.js';
import { SINGLE_LOCK_KINDS } from './singleLockKinds.js';

/**
 * The kind whose id is `id`, single lock or group: how a child process, told a kind's id, builds
 * the same kind as its parent.
 *
 * @throws Error for an unknown id
 */
export function kindById(id: string): RegisteredKind {
  const kind = [...SINGLE_LOCK_KINDS, ...LOCK_GROUP_KINDS].find((entry) => entry.id === id);
  if (kind === undefined) throw new Error(`no lock kind ${id}`);
  return kind;
}

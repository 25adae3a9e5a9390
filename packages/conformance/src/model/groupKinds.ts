import type { AcquireOptions, LockClient } from '@deadbolt/core';
import type { HeldLockGroup, MemberLock } from '@deadbolt/multilock';
import { RedLock } from '@deadbolt/redlock';
import { MULTI_LOCK, RED_LOCK, SHORT_WAITER_TIMEOUT } from '../kinds/index.js';

/** A lock group as one user of a group model run holds it. */
export interface ModelGroup {
  acquire(options?: AcquireOptions): Promise<HeldLockGroup>;
  tryAcquire(options?: AcquireOptions): Promise<HeldLockGroup | null>;
  readonly locks: readonly MemberLock[];
}

/**
 * A lock group kind under the group model: each user builds the group over the same member names
 * from clients of its own; `needed` members must stay held for the group to count as held.
 */
export interface GroupKind {
  readonly name: string;
  /** Lock clients each user needs (a RedLock needs one per member). */
  readonly clientsPerUser: number;
  /** The group over member names derived from `name`, on one user's clients. */
  build(
    clients: readonly LockClient[],
    name: string,
  ): { readonly group: ModelGroup; readonly memberNames: readonly string[]; readonly needed: number };
}

/** A MultiLock over a plain lock and a fair lock (in different cluster slots). */
const multiLockKind: GroupKind = {
  name: MULTI_LOCK.id,
  clientsPerUser: 1,
  build(clients, name) {
    const group = MULTI_LOCK.create(clients, name, 'lock', SHORT_WAITER_TIMEOUT);
    return { group, memberNames: group.locks.map((lock) => lock.name), needed: group.locks.length };
  },
};

/**
 * A RedLock over three member locks, each on a client of its own. The model runs it on one
 * backend, so three names stand in for three deployments: the registry's RedLock, one name on
 * every deployment, would be one lock here.
 */
const redLockKind: GroupKind = {
  name: RED_LOCK.id,
  clientsPerUser: 3,
  build(clients, name) {
    const memberNames = clients.map((_, index) => `${name}:r${index}`);
    const group = new RedLock(clients.map((client, index) => client.lock(memberNames[index]!)));
    return { group, memberNames, needed: group.quorum };
  },
};

/** Every lock group kind the group model runs. */
export const GROUP_MODEL_KINDS: readonly GroupKind[] = [multiLockKind, redLockKind];

import type { LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { MultiLock, type HeldLockGroup, type MemberLock } from '@deadbolt/multilock';
import { RedLock } from '@deadbolt/redlock';
import type { AcquireOptions } from '@deadbolt/core';

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
  build(clients: readonly LockClient[], name: string): { readonly group: ModelGroup; readonly memberNames: readonly string[]; readonly needed: number };
}

/** A MultiLock over a plain lock and a fair lock (in different cluster slots). */
export const multiLockKind: GroupKind = {
  name: 'MultiLock',
  clientsPerUser: 1,
  build(clients, name) {
    const client = clients[0]!;
    const memberNames = [`${name}:plain`, `${name}:fair`];
    const group = new MultiLock([client.lock(memberNames[0]!), new FairLock(client, memberNames[1]!, { waiterTimeout: 1_000 })]);
    return { group, memberNames, needed: 2 };
  },
};

/** A RedLock over three member locks, each on a client of its own (three names stand in for three deployments). */
export const redLockKind: GroupKind = {
  name: 'RedLock',
  clientsPerUser: 3,
  build(clients, name) {
    const memberNames = clients.map((_, index) => `${name}:r${index}`);
    const group = new RedLock(clients.map((client, index) => client.lock(memberNames[index]!)));
    return { group, memberNames, needed: group.quorum };
  },
};

/** Every lock group kind the group model runs. */
export const GROUP_MODEL_KINDS: readonly GroupKind[] = [multiLockKind, redLockKind];

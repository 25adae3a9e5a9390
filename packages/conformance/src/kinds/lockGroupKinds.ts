// The lock groups: they hold a group (`HeldLockGroup`, `HeldRedLock`) with no queries of its own.
import { MultiLock } from '@deadbolt/multilock';
import { RedLock } from '@deadbolt/redlock';
import { LOCK_ROLES } from './LockRole.js';
import { oneClient } from './oneClient.js';
import type { RegisteredKind } from './RegisteredKind.js';
import { FAIR_LOCK, LOCK } from './singleLockKinds.js';

/**
 * A `MultiLock` over two kinds of member under two names derived from `name`: a `Lock`
 * (`<name>:plain`) and a `FairLock` (`<name>:fair`).
 */
export const MULTI_LOCK: RegisteredKind<MultiLock> = {
  id: 'MultiLock',
  roles: LOCK_ROLES,
  fair: false,
  spansDeployments: false,
  create: (clients, name, _role, settings) => {
    const client = oneClient(clients);
    return new MultiLock([
      LOCK.create([client], `${name}:plain`, 'lock'),
      FAIR_LOCK.create([client], `${name}:fair`, 'lock', settings),
    ]);
  },
};

/** A `RedLock` over one `Lock` named `name` per deployment (per client). */
export const RED_LOCK: RegisteredKind<RedLock> = {
  id: 'RedLock',
  roles: LOCK_ROLES,
  fair: false,
  spansDeployments: true,
  create: (clients, name) => new RedLock(clients.map((client) => client.lock(name))),
};

/** Every lock group kind. */
export const LOCK_GROUP_KINDS: readonly RegisteredKind[] = [MULTI_LOCK, RED_LOCK];

// The read lock and the write lock as kinds of the shared conformance suite. They import the
// built package, so that the suite's child processes (plain tsx, no Lua loader) can rebuild them.
import type { LockKind } from '@deadbolt/conformance';
import { ReadWriteLock } from '@deadbolt/rwlock';

/** The write lock of a `ReadWriteLock`: an exclusive lock, held to the whole suite. */
export const writeLock: LockKind = {
  name: 'WriteLock',
  create: (client, name) => new ReadWriteLock(client, name).writeLock(),
  module: import.meta.url,
  exportName: 'writeLock',
};

/** The read lock of a `ReadWriteLock`: shared, so the suite skips its tests of exclusion between owners. */
export const readLock: LockKind = {
  name: 'ReadLock',
  create: (client, name) => new ReadWriteLock(client, name).readLock(),
  module: import.meta.url,
  exportName: 'readLock',
  holders: 'shared',
};

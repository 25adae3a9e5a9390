import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockClient, RedisUnavailableError, type LockBase } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import type { Connection } from './connection.js';
import { CliError, toCliError } from './errors.js';
import type { LockInfo } from './LockInfo.js';

/**
 * Deletes a lock and wakes its waiters exactly as a release of its kind does, by calling that
 * kind's own `forceUnlock({ holders })` on a `LockClient` over the connection: a plain or fenced
 * lock publishes on `redisson_lock__channel:{name}`, a fair lock wakes the head of its queue on
 * the head's own channel, a read-write lock announces on `redisson_rwlock:{name}`. Redisson
 * waiters are woken as by a Java release. Hold markers go with the lock; the fair queue and the
 * token counter stay, as they do on every force-unlock.
 *
 * Only the holds that were read are freed: the lock is deleted only while its hash is still
 * `lock.hash`. A lock released and taken by another holder since it was read (or re-entered, or
 * turned to the other mode) stays as it is, and so does one taken after the deletion, however
 * late a copy of the request reaches Redis.
 *
 * @param connection - from {@link connect}
 * @param lock - the lock as {@link inspectLock} read it: its kind picks the unlock, its hash what
 *   may be deleted
 * @returns `true` when the lock was deleted; `false` when it is no longer as read (nothing deleted)
 * @throws {@link CliError} `not-a-lock` for a semaphore, which has no holder to unlock;
 *   `unreachable` when Redis could not be reached or did not answer in time: the lock may or may
 *   not have been deleted
 */
export async function forceUnlock(connection: Connection, lock: LockInfo): Promise<boolean> {
  // The client is closed afterwards; it closes only what it opened, never the connection's client.
  const client = new LockClient(ioredisExecutor(connection.client));
  try {
    return await lockOfKind(client, lock).forceUnlock({ holders: lock.hash });
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      throw new CliError(
        'unreachable',
        `could not learn whether "${lock.name}" was force-unlocked (${error.message}): run "deadbolt show ${lock.name}" to see`,
        { cause: error },
      );
    }
    throw toCliError(error, `force-unlock "${lock.name}"`);
  } finally {
    await client.close();
  }
}

function lockOfKind(client: LockClient, lock: LockInfo): Pick<LockBase, 'forceUnlock'> {
  switch (lock.kind) {
    case 'lock':
      return client.lock(lock.name);
    case 'fair':
      return new FairLock(client, lock.name);
    case 'fenced':
      return new FencedLock(client, lock.name);
    case 'read-write': {
      // A half's forceUnlock deletes the lock only in its own mode, so ask the half of the mode seen.
      const pair = new ReadWriteLock(client, lock.name);
      return lock.mode === 'read' ? pair.readLock() : pair.writeLock();
    }
    case 'semaphore':
      throw new CliError('not-a-lock', `"${lock.name}" is a semaphore: its permits have no holder to unlock`);
  }
}

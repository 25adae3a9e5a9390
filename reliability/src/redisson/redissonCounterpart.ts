import type { RedissonLock, RedissonPeer } from '@deadbolt/conformance';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerKind } from '../kinds.js';

/** How a Java service takes a kind in one role through Redisson, on lock `name`. */
type Counterpart = (peer: RedissonPeer, name: string, role: string) => RedissonLock;

// The kinds whose Redisson lock the peer plays, by kind id: Redisson's RLock, its fair lock, its
// spin lock, and the read and write halves of its RReadWriteLock.
const COUNTERPARTS: ReadonlyMap<string, Counterpart> = new Map<string, Counterpart>([
  ['Lock', (peer, name) => peer.getLock(name)],
  ['FairLock', (peer, name) => peer.getFairLock(name)],
  ['SpinLock', (peer, name) => peer.getSpinLock(name)],
  [
    'ReadWriteLock',
    (peer, name, role) => {
      const lock = peer.getReadWriteLock(name);
      return role === 'read' ? lock.readLock() : lock.writeLock();
    },
  ],
]);

/** Whether a Redisson peer can take `subject`'s lock (the plain, fair, spin and read-write locks). */
export function hasRedissonCounterpart(subject: LockSubject<HammerKind>): boolean {
  return COUNTERPARTS.has(subject.kind.id);
}

/**
 * The Redisson lock that `subject`'s kind in its role is on the wire, named `name`, on `peer`: a
 * Java thread that takes it excludes (or, reading, shares with) Deadbolt's holders of that name.
 *
 * @throws Error for a subject without one (see {@link hasRedissonCounterpart})
 */
export function redissonCounterpart(peer: RedissonPeer, subject: LockSubject<HammerKind>, name: string): RedissonLock {
  const counterpart = COUNTERPARTS.get(subject.kind.id);
  if (counterpart === undefined) throw new Error(`the Redisson peer plays no counterpart of ${subject.label}`);
  return counterpart(peer, name, subject.role.name);
}

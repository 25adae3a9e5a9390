import { ownerName, type QueuedWaiter } from '../LockInfo.js';
import type { LockSnapshot } from '../snapshot.js';

/**
 * A fair lock's waiters: the queue `redisson_lock_queue:{name}` in arrival order, each with its
 * deadline from `redisson_lock_timeout:{name}` (wall-clock ms of the client that wrote it).
 */
export function fairWaiters(snapshot: LockSnapshot): QueuedWaiter[] {
  return snapshot.queue.map((field, i) => ({
    ...ownerName(field),
    position: i + 1,
    deadline: snapshot.deadlines.get(field) ?? null,
  }));
}

/** Whether the name has a fair lock's queue or deadlines: only a fair lock writes them. */
export function hasFairQueue(snapshot: LockSnapshot): boolean {
  return snapshot.queue.length > 0 || snapshot.deadlines.size > 0;
}

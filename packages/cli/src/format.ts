import type { LockInfo, OwnerName } from './LockInfo.js';

/** A duration in ms for people: `850ms`, `12.3s`, `4m05s`, `2h10m`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m${String(Math.floor((ms % 60_000) / 1_000)).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** A lock's TTL: `-` when free, `no expiry` when it has none. */
export function formatTtl(lock: LockInfo): string {
  if (!lock.held) return '-';
  return lock.ttl === null ? 'no expiry' : formatDuration(lock.ttl);
}

/** A read hold's remaining lease: `gone` once its key expired, `no expiry` for -1. */
export function formatHoldTtl(ttl: number | null): string {
  if (ttl === null) return 'gone';
  return ttl < 0 ? 'no expiry' : formatDuration(ttl);
}

/** A deadline relative to `now`: `in 4.0s`, or `passed 1.2s ago`. */
export function formatDeadline(deadline: number | null, now: number): string {
  if (deadline === null) return 'none';
  const left = deadline - now;
  return left >= 0 ? `in ${formatDuration(left)}` : `passed ${formatDuration(-left)} ago`;
}

/**
 * `clientId:ownerId`, whole: services are told apart by their client ids, which the operations
 * guide asks them to make readable, and a cut one could name two services alike.
 */
export function ownerLabel(owner: OwnerName): string {
  return `${owner.clientId}:${owner.ownerId}`;
}

/** The kind column: `read-write (read)` for a read-write lock. */
export function formatKind(lock: LockInfo): string {
  return lock.mode === undefined ? lock.kind : `${lock.kind} (${lock.mode})`;
}

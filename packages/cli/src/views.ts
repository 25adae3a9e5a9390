import { formatDeadline, formatDuration, formatHoldTtl, formatKind, formatTtl, ownerLabel } from './format.js';
import type { Holder, LockInfo, QueuedWaiter } from './LockInfo.js';
import { renderTable, type Column } from './table.js';

const ownersOf = (lock: LockInfo) => lock.holders.filter((holder) => holder.role !== 'reader');
const readers = (lock: LockInfo) => lock.holders.filter((holder) => holder.role === 'reader');
const sumHolds = (holders: readonly Holder[]) => holders.reduce((sum, holder) => sum + holder.holds, 0);

const LIST_COLUMNS: readonly Column<LockInfo>[] = [
  { header: 'NAME', value: (lock) => lock.name },
  { header: 'KIND', value: formatKind },
  { header: 'TTL', value: formatTtl, align: 'right' },
  {
    header: 'HOLDER',
    value: (lock) =>
      ownersOf(lock)
        .map((h) => `${ownerLabel(h)} x${h.holds}`)
        .join(', ') || '-',
  },
  {
    header: 'READERS',
    value: (lock) => countOf(readers(lock).length, `(${sumHolds(readers(lock))} holds)`, lock.kind === 'read-write'),
  },
  { header: 'WAITERS', value: waitersOf },
];

function countOf(count: number, detail: string, applies: boolean): string {
  if (!applies) return '-';
  return count === 0 ? '0' : `${count} ${detail}`;
}

// A fair queue's length; a semaphore's waiting connections; nothing to show for other kinds.
function waitersOf(lock: LockInfo): string {
  if (lock.kind === 'fair') return String(lock.waiters.length);
  if (lock.kind === 'semaphore') return `${lock.subscribers ?? 0} subscribed`;
  return '-';
}

/** The `ls` table: one line per lock. */
export function renderLockList(locks: readonly LockInfo[]): string {
  if (locks.length === 0) return 'no locks found';
  return renderTable(LIST_COLUMNS, locks);
}

const HOLDER_COLUMNS: readonly Column<Holder>[] = [
  { header: 'ROLE', value: (holder) => holder.role },
  { header: 'CLIENT ID', value: (holder) => holder.clientId },
  { header: 'OWNER ID', value: (holder) => holder.ownerId },
  { header: 'HOLDS', value: (holder) => String(holder.holds), align: 'right' },
  { header: 'HOLD LEASES', value: (holder) => holder.holdTtls?.map(formatHoldTtl).join(', ') ?? 'the lock TTL' },
];

function waiterColumns(now: number): readonly Column<QueuedWaiter>[] {
  return [
    { header: '#', value: (waiter) => String(waiter.position), align: 'right' },
    { header: 'CLIENT ID', value: (waiter) => waiter.clientId },
    { header: 'OWNER ID', value: (waiter) => waiter.ownerId },
    { header: 'DEADLINE', value: (waiter) => formatDeadline(waiter.deadline, now) },
  ];
}

/** `show`: one lock in full, with the holders' and the queue's tables. */
export function renderLock(lock: LockInfo, now: number): string {
  const lines = [`lock     ${lock.name}`, `kind     ${formatKind(lock)}`, `state    ${stateOf(lock)}`];
  if (lock.fencingToken !== undefined)
    lines.push(`token    ${lock.fencingToken} (the latest acquisition's fencing token)`);
  if (lock.kind === 'semaphore')
    lines.push(`permits  ${lock.permits ?? 0} available, ${lock.subscribers ?? 0} connection(s) waiting`);
  if (lock.holders.length > 0) lines.push('', 'holders', indent(renderTable(HOLDER_COLUMNS, lock.holders)));
  if (lock.kind === 'fair') {
    lines.push('', lock.waiters.length === 0 ? 'queue    empty' : 'queue (first to be granted first)');
    if (lock.waiters.length > 0) lines.push(indent(renderTable(waiterColumns(now), lock.waiters)));
  }
  return lines.join('\n');
}

function stateOf(lock: LockInfo): string {
  if (lock.kind === 'semaphore') return lock.ttl === null ? 'no expiry' : `expires in ${formatDuration(lock.ttl)}`;
  if (!lock.held) return 'free';
  return lock.ttl === null ? 'held, no expiry' : `held, expires in ${formatDuration(lock.ttl)}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

// A lock kind built with `@deadbolt/core/kit`: the reentrant Lock (Redisson's RLock layout) whose
// holder leaves a note for operators, such as "host-a pid 4242", in the field `note` of the lock
// hash. The note lives exactly as long as the lock, since the watchdog, extend, the last release
// and forceUnlock act on the whole hash. A Redisson RLock or a plain Lock on the same name still
// excludes and is excluded: their scripts touch only their own owner field.
// A module, not a program: writing-a-lock-kind.ts runs it (guide: Writing a lock kind).
import { hostname } from 'node:os';
import { LockBase, type LockHost } from '@deadbolt/core';
import {
  call,
  checkName,
  coreLua,
  decodeNilOrTtl,
  defineCommand,
  defineScript,
  holdMarkersKey,
  lockRuntime,
  reentrantLockKind,
  requestRecordKey,
} from '@deadbolt/core/kit';
import type { AcquireReply, LeasedHoldInput, LockInput, LockKind } from '@deadbolt/core/kit';

const ACQUIRE = `
-- Takes or re-enters a noted lock; taking it afresh also writes the holder's note into the
-- hash field 'note' (a re-entry keeps the note). Runs after coreLua.hold.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[3]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  this attempt's hold id, <instance>:<n>
-- ARGV[4]  this attempt's deadline on the server's clock, in milliseconds
-- ARGV[5]  the holder's note
--
-- Returns  nil when taken or re-entered (a re-sent request counts once); otherwise the lock's
--          remaining TTL in milliseconds (-1 when it has no expiry; 0 for a copy of an attempt
--          whose hold is gone, when nobody holds the lock). Raises DEADBOLT_LATE past the
--          deadline.
local state, ttl = hold_state(KEYS[1], KEYS[2], KEYS[3], ARGV[4], ARGV[2], ARGV[3])
if state == 'counted' then
  return nil
end
if state == 'other' or state == 'gone' then
  return retry_ttl(ttl)
end
add_hold(KEYS[1], KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[1]))
if state == 'free' then
  redis.call('hset', KEYS[1], 'note', ARGV[5])
end
return nil`;

const HOLDER = `
-- Reads who holds a lock of the reentrant layout, and the note its holder left.
--
-- KEYS[1]  the lock hash
--
-- Returns  nil when nobody holds it; else { owner field, the note (nil when none was left) }.
for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
  if field ~= 'note' then
    return { field, redis.call('hget', KEYS[1], 'note') }
  end
end
return nil`;

/** The input of {@link notedAcquire}: a hold, its lease and the note to leave. */
export interface NotedAcquireInput extends LeasedHoldInput {
  /** The holder's note, written when this acquisition takes the lock afresh. */
  readonly note: string;
}

/** Takes or re-enters a noted lock, leaving the note when it takes it afresh. */
export const notedAcquire = defineCommand<NotedAcquireInput, AcquireReply<null>>({
  script: defineScript('examples/noted-lock-acquire', `${coreLua.hold}\n${ACQUIRE}`),
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ lease, field, hold, note }, { deadline }) => [lease, field, hold, deadline, note],
  decode: decodeNilOrTtl,
});

/** Who holds a lock: its owner field's two halves, and the note (`null` when none was left). */
export interface Holder {
  /** The holder's client id: a `LockClient`'s `id`, or a Redisson client's UUID. */
  readonly clientId: string;
  /** The holder's owner id: a held lock's `owner`, or a Redisson thread id. */
  readonly owner: string;
  /** The note its holder left; `null` for a holder that leaves none (a plain Lock, Redisson). */
  readonly note: string | null;
}

/** Reads who holds a lock of the reentrant layout; `null` when nobody does. */
export const notedHolder = defineCommand<LockInput, Holder | null>({
  script: defineScript('examples/noted-lock-holder', HOLDER),
  keys: ({ name }) => [name],
  args: () => [],
  decode: (reply) => {
    if (!Array.isArray(reply)) return null;
    const [field, note] = reply as readonly unknown[];
    const [clientId = '', ...owner] = String(field).split(':');
    return { clientId, owner: owner.join(':'), note: typeof note === 'string' ? note : null };
  },
});

/** The noted lock's declaration: the reentrant lock's, with an acquire that leaves `note`. */
export function notedLockKind(note: string): (name: string) => LockKind {
  return (name) => ({
    ...reentrantLockKind(name),
    kindName: 'noted',
    acquire: ({ field, hold, lease }) => call(notedAcquire, { name, field, hold, lease, note }),
  });
}

/**
 * A reentrant lock whose holder leaves a note for operators. Everything else is the plain Lock's:
 * owners, the watchdog, `withLock`, waiting, the queries. One note per handle.
 */
export class NotedLock extends LockBase {
  /** The note this handle's acquisitions leave. */
  readonly note: string;

  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name
   * @param note - what operators see while this handle holds it; default `<hostname> pid <pid>`
   */
  constructor(client: LockHost, name: string, note = `${hostname()} pid ${process.pid}`) {
    super(client, name, notedLockKind(checkName(note, 'note')));
    this.note = note;
  }

  /** Who holds the lock and what note they left; `null` when nobody holds it. */
  async holder(): Promise<Holder | null> {
    const runtime = lockRuntime(this.client);
    runtime.assertOpen();
    return runtime.run(call(notedHolder, { name: this.name }));
  }
}

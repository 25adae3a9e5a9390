import {
  decodeNilOrTtl,
  defineCommand,
  holdMarkersKey,
  requestRecordKey,
  type AcquireReply,
  type LeasedHoldInput,
} from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/** The input of {@link writeAcquire}: `field` is the writer field, `<clientId>:<ownerId>:write`. */
export interface WriteAcquireInput extends LeasedHoldInput {
  /** The same owner's reader field: an owner holding read holds may not take the write lock. */
  readonly readerField: string;
}

// What write-acquire.lua replies when its owner holds live read holds: an upgrade.
const UPGRADE_REFUSED = -3;
const REFUSED: AcquireReply<null> = Object.freeze({ status: 'refused' });

/**
 * Takes or re-enters the write lock, once per attempt and never past its deadline
 * (`write-acquire.lua`); `refused` when the owner holds the read lock, which no wait could ever
 * change.
 */
export const writeAcquire = defineCommand<WriteAcquireInput, AcquireReply<null>>({
  script: rwlockScripts.writeAcquire,
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ lease, field, readerField, hold }, { deadline }) => [lease, field, readerField, hold, deadline],
  decode: (reply) => (reply !== null && Number(reply) === UPGRADE_REFUSED ? REFUSED : decodeNilOrTtl(reply)),
});

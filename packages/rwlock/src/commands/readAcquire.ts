import {
  decodeNilOrTtl,
  defineCommand,
  holdMarkersKey,
  requestRecordKey,
  type AcquireReply,
  type LeasedHoldInput,
} from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/** The input of {@link readAcquire}: `field` is the reader field, `<clientId>:<ownerId>`. */
export interface ReadAcquireInput extends LeasedHoldInput {
  /** The same owner's writer field: its write hold lets it read. */
  readonly writerField: string;
}

/**
 * Takes a read hold unless another owner holds the write lock, once per attempt and never past its
 * deadline (`read-acquire.lua`).
 */
export const readAcquire = defineCommand<ReadAcquireInput, AcquireReply<null>>({
  script: rwlockScripts.readAcquire,
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ lease, field, writerField, hold }, { deadline }) => [lease, field, writerField, hold, deadline],
  decode: decodeNilOrTtl,
});

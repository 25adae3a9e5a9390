import { decodeNilOrTtl, defineCommand, holdMarkersKey, type AcquireReply, type LeasedHoldInput } from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/** The input of {@link readAcquire}: `field` is the reader field, `<clientId>:<ownerId>`. */
export interface ReadAcquireInput extends LeasedHoldInput {
  /** The same owner's writer field: its write hold lets it read. */
  readonly writerField: string;
}

/** Takes a read hold unless another owner holds the write lock (`read-acquire.lua`). */
export const readAcquire = defineCommand<ReadAcquireInput, AcquireReply<null>>({
  script: rwlockScripts.readAcquire,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: ({ lease, field, writerField, hold }) => [lease, field, writerField, hold],
  decode: decodeNilOrTtl,
});

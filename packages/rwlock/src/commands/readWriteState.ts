import { decodeLockState, defineCommand, type LockState, type LockStateInput } from '@deadbolt/core/kit';
import type { ReadWriteMode } from '../ReadWriteMode.js';
import { rwlockScripts } from '../rwlockScripts.js';

/** The input of {@link readWriteState}. */
export interface ReadWriteStateInput extends LockStateInput {
  /** Which lock asks: it sees the lock as held only in its own mode (a read lock also in a writer's read holds). */
  readonly mode: ReadWriteMode;
}

/** Reads a read-write lock's TTL as one half sees it and a field's hold count (`state.lua`). */
export const readWriteState = defineCommand<ReadWriteStateInput, LockState>({
  script: rwlockScripts.state,
  keys: ({ name }) => [name],
  args: ({ field, mode }) => [field, mode],
  decode: decodeLockState,
});

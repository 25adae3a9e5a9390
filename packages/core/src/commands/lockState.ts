import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import { decodeLockState, type LockState } from './replies.js';

/** The input of the `lockState` command: a lock and the hold field to count. */
export interface LockStateInput {
  /** The lock's name. */
  readonly name: string;
  /** The hold field whose count to read, or `''` for none. */
  readonly field: string;
}

/** Reads a reentrant lock's TTL and one field's hold count (`lock-state.lua`). */
export const lockState = defineCommand<LockStateInput, LockState>({
  script: coreScripts.state,
  keys: ({ name }) => [name],
  args: ({ field }) => [field],
  decode: decodeLockState,
});

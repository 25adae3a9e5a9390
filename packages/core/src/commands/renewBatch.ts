import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand, type Command } from '../scripts/Command.js';
import type { Script } from '../scripts/Script.js';
import type { HoldInput } from './inputs.js';

/** The watchdog's input for one batch: holds whose locks share a hash slot, and the lease to set. */
export interface RenewBatchInput {
  /** The lease in milliseconds. */
  readonly lease: number;
  /** The holds, their locks all in one hash slot. */
  readonly holds: readonly HoldInput[];
}

/** A batch renewal: whether each hold of the batch was renewed (`false`: it is gone). */
export type RenewCommand = Command<RenewBatchInput, boolean[]>;

/**
 * The command over a batch renewal script: KEYS are the holds' locks, ARGV[1] the lease, ARGV[2]
 * the renewal's deadline, ARGV[2i+1] and ARGV[2i+2] the field and hold id for KEYS[i]; the reply
 * is 1 (renewed) or 0 (gone) per key.
 * Scripts written over `coreLua.renewBatch` take exactly this.
 */
export function renewBatchCommand(script: Script): RenewCommand {
  return defineCommand<RenewBatchInput, boolean[]>({
    script,
    keys: ({ holds }) => holds.map((hold) => hold.name),
    args: ({ lease, holds }, { deadline }) => [lease, deadline, ...holds.flatMap((hold) => [hold.field, hold.hold])],
    decode: (reply) => (Array.isArray(reply) ? reply.map((renewed) => Number(renewed) === 1) : []),
  });
}

/** Renews holds of reentrant locks (`lock-renew.lua`). */
export const lockRenew = renewBatchCommand(coreScripts.renew);

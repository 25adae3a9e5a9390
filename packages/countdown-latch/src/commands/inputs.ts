import type { CommandContext, ScriptArgument } from '@deadbolt/core/kit';
import { latchChannelName, latchRequestKey } from '../latchKeys.js';

/** A latch, by name. */
export interface LatchInput {
  /** The latch's name: the key that holds its count. */
  readonly name: string;
}

/** One request that changes a latch, run at most once however often the driver sends it. */
export interface LatchRequestInput extends LatchInput {
  /** The request's id, unique per client: its marker key's suffix. */
  readonly request: string;
}

/**
 * The KEYS every state-changing latch script takes, in its header's order: the latch, its
 * channel, the request's marker.
 */
export function requestKeys({ name, request }: LatchRequestInput): readonly string[] {
  return [name, latchChannelName(name), latchRequestKey(name, request)];
}

/**
 * The ARGV that end every state-changing latch script: the publish command, and how long the
 * request's marker keeps its outcome, as long as a release's unlock latch does (past any re-send).
 */
export function requestArgs(context: CommandContext): readonly ScriptArgument[] {
  return [context.publish, context.unlockLatchTtl];
}

/** Decodes the 1 or 0 a latch script replies as a boolean. */
export function decodeFlag(reply: unknown): boolean {
  return reply === 1;
}

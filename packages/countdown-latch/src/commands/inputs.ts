import { requestRecordKey, type CommandContext, type ScriptArgument } from '@deadbolt/core/kit';
import { latchChannelName } from '../latchKeys.js';

/** A latch, by name. */
export interface LatchInput {
  /** The latch's name: the key that holds its count. */
  readonly name: string;
}

/** One request that changes a latch, run at most once however often the driver sends it. */
export interface LatchRequestInput extends LatchInput {
  /** The request's id, `<instance>:<n>`, unique per client: its record's suffix. */
  readonly request: string;
}

/**
 * The KEYS every state-changing latch script takes, in its header's order: the latch, its
 * channel, the request's record `deadbolt_request:{name}:<request id>`.
 */
export function requestKeys({ name, request }: LatchRequestInput): readonly string[] {
  return [name, latchChannelName(name), requestRecordKey(name, request)];
}

/**
 * The ARGV that end every state-changing latch script: the publish command, the request's
 * deadline on the server's clock, past which the script refuses it, and how long its record lives
 * past the deadline (a retry of the request finds it).
 */
export function requestArgs(context: CommandContext): readonly ScriptArgument[] {
  return [context.publish, context.deadline, context.recordTtl];
}

/** Decodes the 1 or 0 a latch script replies as a boolean. */
export function decodeFlag(reply: unknown): boolean {
  return reply === 1;
}

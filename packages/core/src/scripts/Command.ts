import type { ScriptArgument } from '../executor/Executor.js';
import type { Script } from './Script.js';

/** The pub/sub command a script announces releases with. */
export type PublishCommand = 'publish' | 'spublish';

/** What the client supplies to every command's arguments when it runs one. */
export interface CommandContext {
  /** `spublish` when lock channels use sharded pub/sub, else `publish`. */
  readonly publish: PublishCommand;
  /**
   * How long a record kept on behalf of another request lives, in milliseconds: twice the client's
   * `commandTimeout`. A release keeps its outcome, and the fact that the acquisition it names is
   * over, that long in the acquisition's request record, longer than that acquisition can still
   * arrive (see `release-once.lua`).
   */
  readonly recordTtl: number;
  /** The wall-clock time (`Date.now()`), for scripts that store deadlines as Redisson does. */
  readonly now: number;
  /**
   * This request's deadline on the server's clock, in milliseconds: the client's estimate of the
   * server's time at the send (erring late) plus `commandTimeout`. A script that could take,
   * count or lengthen something refuses to run past it (`request-deadline.lua`), so a copy the
   * driver re-sends, or the network delivers, later than that is harmless.
   */
  readonly deadline: number;
}

/**
 * One Lua script as a typed call: named inputs become its KEYS and ARGV, its reply becomes a
 * decoded value. The script's `.lua` header states the same KEYS, ARGV and reply; `keys`, `args`
 * and `decode` are pure, so each is unit-tested without Redis.
 *
 * @typeParam Input - the named inputs
 * @typeParam Reply - the decoded reply
 */
export interface Command<Input, Reply> {
  /** The script this command runs. */
  readonly script: Script;
  /** The script's KEYS, every one in the first key's hash slot. */
  keys(input: Input): readonly string[];
  /** The script's ARGV. */
  args(input: Input, context: CommandContext): readonly ScriptArgument[];
  /** Turns the raw reply into the command's reply. */
  decode(reply: unknown): Reply;
}

/** Declares a command; see {@link Command}. */
export function defineCommand<Input, Reply>(command: Command<Input, Reply>): Command<Input, Reply> {
  return Object.freeze({ ...command });
}

/**
 * A command bound to its inputs, ready to run: what a lock kind's declaration returns for each
 * operation (see `LockKind`), and what `LockRuntime.run` takes.
 */
export interface Call<Reply> {
  readonly script: Script;
  readonly keys: readonly string[];
  args(context: CommandContext): readonly ScriptArgument[];
  decode(reply: unknown): Reply;
}

/** Binds `command` to `input`. */
export function call<Input, Reply>(command: Command<Input, Reply>, input: Input): Call<Reply> {
  return {
    script: command.script,
    keys: command.keys(input),
    args: (context) => command.args(input, context),
    decode: (reply) => command.decode(reply),
  };
}

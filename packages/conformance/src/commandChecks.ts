import type { Command, CommandContext, PublishCommand } from '@deadbolt/core/kit';
import { expect } from 'vitest';
import { withoutIncludes } from '../../../luaIncludes.mjs';

// What the typed-command unit tests of every package share: a fixed context, and the check that a
// command runs its script with as many KEYS and ARGV as the script's header declares.

/** Both publish commands a context can carry. */
export const PUBLISH_COMMANDS: readonly PublishCommand[] = ['publish', 'spublish'];

/** A fixed clock, record TTL and deadline, so that expected ARGV can be written out. */
export const COMMAND_NOW = 1_700_000_000_000;
export const COMMAND_LATCH_TTL = 20_000;
export const COMMAND_DEADLINE = 1_700_000_010_000;

/** The context a command's arguments are built with in the unit tests. */
export function commandContext(publish: PublishCommand): CommandContext {
  return { publish, recordTtl: COMMAND_LATCH_TTL, now: COMMAND_NOW, deadline: COMMAND_DEADLINE };
}

/** How many KEYS and ARGV a script's header declares (`KEYS[1..4]` counts 4; `KEYS[1..n]` counts nothing). */
function declaredArity(lua: string): { keys: number; args: number } {
  const highest = (kind: string) =>
    Math.max(
      0,
      ...[...lua.matchAll(new RegExp(`^-- ${kind}\\[(\\d+)(?:\\.\\.(\\d+))?\\]`, 'gm'))].map((m) =>
        Number(m[2] ?? m[1]),
      ),
    );
  return { keys: highest('KEYS'), args: highest('ARGV') };
}

/** What a `.lua` file, as written (imported with `?raw`), adds to a script after the fragments it includes. */
export const scriptBody = withoutIncludes;

/**
 * The command runs the named script, whose source ends with the file `lua` (as written, imported
 * with `?raw`) without its include lines, with as many KEYS and ARGV as the file's header declares.
 */
export function expectScript<I>(command: Command<I, unknown>, name: string, lua: string, input: I): void {
  expect(command.script.name).toBe(name);
  expect(command.script.source.endsWith(scriptBody(lua))).toBe(true);
  expect({ keys: command.keys(input).length, args: command.args(input, commandContext('publish')).length }).toEqual(
    declaredArity(lua),
  );
}

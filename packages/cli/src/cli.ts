import { COMMANDS, parseCommand, type ParsedCommand } from './args.js';
import { lsCommand } from './commands/ls.js';
import { showCommand } from './commands/show.js';
import { unlockCommand } from './commands/unlock.js';
import { watchCommand } from './commands/watch.js';
import { connect, type Connection } from './connection.js';
import { CliError, toCliError } from './errors.js';
import { commandHelp, generalHelp } from './help.js';
import type { CommandIo } from './io.js';

/**
 * Runs one `deadbolt` command line: parses it, connects, runs the command and closes the
 * connection. Every failure is reported as one line through `reportError`.
 *
 * @param argv - the arguments after the program's name
 * @returns the process exit code: 0, 1 on an error, 2 on a usage error
 */
export async function runCli(
  argv: readonly string[],
  io: CommandIo,
  reportError: (line: string) => void,
): Promise<number> {
  try {
    const parsed = parseCommand(argv);
    if (parsed.command === 'help') {
      const topic = COMMANDS.find((command) => command.name === parsed.topic);
      io.write(topic === undefined ? generalHelp(COMMANDS) : commandHelp(topic));
      return 0;
    }
    const connection = await connect(parsed.url);
    try {
      await runCommand(connection, io, parsed);
    } finally {
      await connection.close();
    }
    return 0;
  } catch (error) {
    const failure = error instanceof CliError ? error : toCliError(error, 'run the command');
    reportError(`deadbolt: ${failure.message}`);
    return failure.exitCode;
  }
}

function runCommand(
  connection: Connection,
  io: CommandIo,
  parsed: Exclude<ParsedCommand, { command: 'help' }>,
): Promise<void> {
  switch (parsed.command) {
    case 'ls':
      return lsCommand(connection, io, parsed);
    case 'show':
      return showCommand(connection, io, parsed);
    case 'watch':
      return watchCommand(connection, io, parsed);
    case 'unlock':
      return unlockCommand(connection, io, parsed);
  }
}

import { COMMANDS, parseCommand, type ParsedCommand } from './args.js';
import { lsCommand } from './commands/ls.js';
import { showCommand } from './commands/show.js';
import { unlockCommand } from './commands/unlock.js';
import { watchCommand } from './commands/watch.js';
import { connect, type Connection } from './connection.js';
import { connectionSettings } from './connectionArgs.js';
import { CliError, toCliError } from './errors.js';
import { commandHelp, generalHelp } from './help.js';
import type { CommandIo } from './io.js';
import { VERSION } from './version.js';

/**
 * Runs one `deadbolt` command line: parses it, connects, runs the command and closes the
 * connection. Every failure is reported as one line through `reportError`. When `io.signal`
 * aborts, the connections are dropped and the command ends as `interrupted`.
 *
 * @param argv - the arguments after the program's name
 * @returns the process exit code: 0, or the failure's (see {@link EXIT_CODES})
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
    if (parsed.command === 'version') {
      io.write(`deadbolt ${VERSION}\n`);
      return 0;
    }
    const { url, options } = await connectionSettings(parsed.connection, io.env ?? {});
    const connection = await connect(url, { ...options, signal: io.signal });
    try {
      await runCommand(connection, io, parsed);
    } finally {
      await connection.close();
    }
    if (io.signal.aborted) throw interrupted();
    return 0;
  } catch (error) {
    const failure = reported(error, io.signal);
    reportError(`deadbolt: ${failure.message}`);
    return failure.exitCode;
  }
}

// Whatever failed once the user interrupted failed because of it (a dropped connection): the
// interruption is the news, unless the command said more about it.
function reported(error: unknown, signal: AbortSignal): CliError {
  const failure = error instanceof CliError ? error : toCliError(error, 'run the command');
  return signal.aborted && failure.code !== 'interrupted' ? interrupted(failure) : failure;
}

function interrupted(cause?: CliError): CliError {
  return new CliError('interrupted', 'interrupted', cause === undefined ? {} : { cause });
}

function runCommand(
  connection: Connection,
  io: CommandIo,
  parsed: Exclude<ParsedCommand, { command: 'help' | 'version' }>,
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

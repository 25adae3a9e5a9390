import { parseArgs } from 'node:util';
import { COMMON_OPTIONS, type CommandName, type CommandOptions, type CommandSyntax } from './commandSyntax.js';
import { LS_SYNTAX } from './commands/ls.js';
import { SHOW_SYNTAX } from './commands/show.js';
import { UNLOCK_SYNTAX } from './commands/unlock.js';
import { WATCH_SYNTAX } from './commands/watch.js';
import type { ConnectionArgs } from './connectionArgs.js';
import { CliError } from './errors.js';

/** What every command that connects takes: where and how, and the output format. */
interface Connected {
  readonly connection: ConnectionArgs;
  readonly json: boolean;
}

/** A command line, parsed and checked. */
export type ParsedCommand =
  /** `--help`: of one command when `topic` names it, else of them all. */
  | { readonly command: 'help'; readonly topic?: CommandName }
  /** `--version`. */
  | { readonly command: 'version' }
  | (Connected & { readonly command: 'ls'; readonly pattern: string })
  | (Connected & { readonly command: 'show'; readonly name: string })
  | (Connected & {
      readonly command: 'watch';
      readonly name: string;
      readonly interval: number;
      readonly count: number;
    })
  | (Connected & {
      readonly command: 'unlock';
      readonly name: string;
      readonly force: boolean;
      readonly yes: boolean;
      readonly dryRun: boolean;
    });

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandSyntax[] = [LS_SYNTAX, SHOW_SYNTAX, WATCH_SYNTAX, UNLOCK_SYNTAX];

/**
 * Parses `argv` (without node and the script). Each command takes its own options and the common
 * ones ({@link COMMON_OPTIONS}); `deadbolt <command> --help` and `deadbolt help <command>` ask
 * for one command's help, `--version` anywhere for the version.
 *
 * @throws {@link CliError} `usage` for an unknown command, an option the command does not take,
 *   a bad option value, or a missing argument
 */
export function parseCommand(argv: readonly string[]): ParsedCommand {
  const { positionals, tokens, values } = firstLook(argv);
  const [command, topic] = positionals;
  if (command === undefined) return values.version === true ? { command: 'version' } : { command: 'help' };
  if (command === 'help') return topic === undefined ? { command } : { command, topic: syntaxOf(topic).name };
  const syntax = syntaxOf(command);
  for (const token of tokens) {
    if (token.kind === 'option' && !takes(syntax, token.name))
      throw notAnOption(syntax.name, token.rawName, token.name);
  }
  switch (syntax.name) {
    case 'ls': {
      const { values, args, common } = parseFor(argv, LS_SYNTAX);
      return common ?? { command: 'ls', ...connected(values), pattern: onlyArgument('ls', args, false) ?? '*' };
    }
    case 'show': {
      const { values, args, common } = parseFor(argv, SHOW_SYNTAX);
      return common ?? { command: 'show', ...connected(values), name: requiredName('show', args) };
    }
    case 'watch': {
      const { values, args, common } = parseFor(argv, WATCH_SYNTAX);
      return (
        common ?? {
          command: 'watch',
          ...connected(values),
          name: requiredName('watch', args),
          interval: positive('--interval', values.interval),
          count: values.count === undefined ? Infinity : positive('--count', values.count),
        }
      );
    }
    case 'unlock': {
      const { values, args, common } = parseFor(argv, UNLOCK_SYNTAX);
      const { force, yes } = values;
      return (
        common ?? {
          command: 'unlock',
          ...connected(values),
          name: requiredName('unlock', args),
          force,
          yes,
          dryRun: values['dry-run'],
        }
      );
    }
  }
}

// Every option any command takes: enough to tell option values from positionals before the
// command is known, and to name the command an option belongs to.
const ANY_OPTION: CommandOptions = Object.fromEntries(
  [COMMON_OPTIONS, ...COMMANDS.map((syntax) => syntax.options)].flatMap((options) => Object.entries(options)),
);

/** The positionals (the command first) and the options as given, before the command is known. */
function firstLook(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: ANY_OPTION, allowPositionals: true, strict: false, tokens: true });
}

function takes(syntax: CommandSyntax, option: string): boolean {
  return Object.hasOwn(COMMON_OPTIONS, option) || Object.hasOwn(syntax.options, option);
}

function syntaxOf(command: string): CommandSyntax {
  const syntax = COMMANDS.find((candidate) => candidate.name === command);
  if (syntax === undefined) {
    const names = COMMANDS.map((candidate) => candidate.name).join(', ');
    throw new CliError('usage', `unknown command "${command}" (commands: ${names}; see deadbolt --help)`);
  }
  return syntax;
}

/**
 * Parses `argv` with the options of `syntax`'s command, once they are known to be its own; `common`
 * is the help or version asked for instead of the command.
 */
function parseFor<const Own extends CommandOptions>(
  argv: readonly string[],
  syntax: { name: CommandName; options: Own },
) {
  try {
    const options = { ...COMMON_OPTIONS, ...syntax.options };
    const { values, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
    // The common options are among `options`; the generic `Own` hides them from parseArgs' type.
    const asked = values as { help?: boolean; version?: boolean };
    const common: ParsedCommand | undefined = asked.help
      ? { command: 'help', topic: syntax.name }
      : asked.version
        ? { command: 'version' }
        : undefined;
    return { values, args: positionals.slice(1), common };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError('usage', `${message} (see deadbolt ${syntax.name} --help)`);
  }
}

/** The connection and output options as given. */
function connected(values: {
  url?: string | undefined;
  'password-file'?: string | undefined;
  cacert?: string | undefined;
  cert?: string | undefined;
  key?: string | undefined;
  insecure: boolean;
  json: boolean;
}): Connected {
  const { url, 'password-file': passwordFile, cacert, cert, key, insecure, json } = values;
  const connection = {
    ...(url === undefined ? {} : { url }),
    ...(passwordFile === undefined ? {} : { passwordFile }),
    ...(cacert === undefined ? {} : { cacert }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    insecure,
  };
  return { connection, json };
}

function notAnOption(command: CommandName, rawName: string, name: string): CliError {
  const owners = COMMANDS.filter((syntax) => Object.hasOwn(syntax.options, name)).map((syntax) => syntax.name);
  const whose = owners.length === 0 ? 'no command takes it' : `it is an option of ${owners.join(', ')}`;
  return new CliError('usage', `${command} does not take ${rawName}: ${whose} (see deadbolt ${command} --help)`);
}

function requiredName(command: string, rest: readonly string[]): string {
  const name = onlyArgument(command, rest, true);
  if (name === undefined) throw new CliError('usage', `${command} needs a lock name: deadbolt ${command} <name>`);
  return name;
}

function onlyArgument(command: string, rest: readonly string[], required: boolean): string | undefined {
  if (rest.length > 1)
    throw new CliError(
      'usage',
      `${command} takes ${required ? 'one lock name' : 'at most one pattern'}, got ${rest.length} arguments`,
    );
  return rest[0];
}

function positive(option: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new CliError('usage', `${option} must be a whole number of at least 1, got "${value}"`);
  return number;
}

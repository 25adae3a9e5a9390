import { DEFAULT_URL } from './url.js';

/** An option of the command line: how `parseArgs` reads it, and how `--help` shows it. */
export interface CommandOption {
  readonly type: 'string' | 'boolean';
  /** A one-letter alias, `-y` for `--yes`. */
  readonly short?: string;
  readonly default?: string | boolean;
  /** How help shows it: `--interval <ms>`. */
  readonly label: string;
  /** What it does, for help. */
  readonly description: string;
}

/** A command's options by long name. */
export type CommandOptions = Readonly<Record<string, CommandOption>>;

/** The names of the commands. */
export type CommandName = 'ls' | 'show' | 'watch' | 'unlock';

/** How a command is called: what `--help` says of it and the options it takes beside the common ones. */
export interface CommandSyntax {
  readonly name: CommandName;
  /** Its arguments as help shows them: `watch <name>`. */
  readonly usage: string;
  /** What it does, for help (one paragraph, wrapped there). */
  readonly summary: string;
  /** The options only it takes; every command also takes {@link COMMON_OPTIONS}. */
  readonly options: CommandOptions;
}

/** The options every command takes: every command connects, and prints for people or for scripts. */
export const COMMON_OPTIONS = {
  url: {
    type: 'string',
    default: DEFAULT_URL,
    label: '--url <url>',
    description: `redis://[user:password@]host:port[/db], rediss:// for TLS (default ${DEFAULT_URL}); a cluster is detected and every master scanned`,
  },
  json: {
    type: 'boolean',
    default: false,
    label: '--json',
    description: 'machine-readable output (JSON)',
  },
  help: { type: 'boolean', short: 'h', default: false, label: '--help, -h', description: 'this text' },
} as const satisfies CommandOptions;

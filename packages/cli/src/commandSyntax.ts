import { PASSWORD_VARIABLE, URL_VARIABLE } from './connectionArgs.js';
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

/**
 * The options every command takes: every command connects (where, with which password, over which
 * TLS), and prints for people or for scripts.
 */
export const COMMON_OPTIONS = {
  url: {
    type: 'string',
    label: '--url <url>',
    description: `redis://[user[:password]@]host:port[/db], rediss:// for TLS (default: $${URL_VARIABLE}, else ${DEFAULT_URL}); a cluster is detected and every master scanned`,
  },
  'password-file': {
    type: 'string',
    label: '--password-file <file>',
    description: `read the password from a file (its final line ending dropped), not from the URL, which ps and shell history show; else $${PASSWORD_VARIABLE} holds it`,
  },
  cacert: {
    type: 'string',
    label: '--cacert <file>',
    description:
      "trust the CA certificates (PEM) in this file for the server's certificate, instead of Node's list (rediss://)",
  },
  cert: {
    type: 'string',
    label: '--cert <file>',
    description: 'a client certificate (PEM), for a server that asks for one (tls-auth-clients); with --key',
  },
  key: { type: 'string', label: '--key <file>', description: "the client certificate's private key (PEM)" },
  insecure: {
    type: 'boolean',
    default: false,
    label: '--insecure',
    description: "do not check the server's certificate: anyone on the way can read and change what is sent",
  },
  json: {
    type: 'boolean',
    default: false,
    label: '--json',
    description: 'machine-readable output (JSON)',
  },
  version: { type: 'boolean', default: false, label: '--version', description: "this command's version" },
  help: { type: 'boolean', short: 'h', default: false, label: '--help, -h', description: 'this text' },
} as const satisfies CommandOptions;

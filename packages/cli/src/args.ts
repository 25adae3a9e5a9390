import { parseArgs } from 'node:util';
import { CliError } from './errors.js';
import { DEFAULT_URL } from './url.js';

/** A command line, parsed and checked. */
export type ParsedCommand =
  | { readonly command: 'help' }
  | { readonly command: 'ls'; readonly url: string; readonly json: boolean; readonly pattern: string }
  | { readonly command: 'show'; readonly url: string; readonly json: boolean; readonly name: string }
  | {
      readonly command: 'watch';
      readonly url: string;
      readonly json: boolean;
      readonly name: string;
      readonly interval: number;
      readonly count: number;
    }
  | {
      readonly command: 'unlock';
      readonly url: string;
      readonly json: boolean;
      readonly name: string;
      readonly force: boolean;
      readonly yes: boolean;
    };

/** The `--help` text. */
export const HELP = `Usage: deadbolt <command> [options]

Inspect and force-unlock distributed locks stored in Redisson's layout on Redis, taken by
Deadbolt or by Java services using Redisson.

Commands:
  ls [pattern]            every lock whose name matches a Redis glob (default *): kind, holders
                          and hold counts, TTL, readers, fair-queue waiters
  show <name>             one lock in full: holders (client id and owner id apart), each read
                          hold's lease, the fair queue with deadlines, the fencing token
  watch <name>            the lock, redrawn every --interval ms with what changed (acquired,
                          released, handed off, waiters joining and leaving) until Ctrl-C
  unlock <name> --force   deletes the lock, held by whoever it shows, and wakes its waiters as a
                          release of its kind does; asks first on a terminal (--yes skips the
                          question). Only the holds it read are freed: if the lock changed
                          meanwhile, nothing is deleted (exit 1; run again)

Options:
  --url <url>        redis://[user:password@]host:port[/db], rediss:// for TLS
                     (default ${DEFAULT_URL}); a cluster is detected and every master scanned
  --json             machine-readable output (watch: one JSON object per line)
  --interval <ms>    watch: between looks (default 500)
  --count <n>        watch: stop after n looks (default: until Ctrl-C)
  --force            unlock: required
  --yes, -y          unlock: do not ask
  --help, -h         this text

What the keys can and cannot tell:
  Kinds are told apart by their keys: a hash with a "mode" field is a read-write lock; a lock
  hash with a queue (redisson_lock_queue:{name}) is a fair lock, with a token counter
  (redisson_lock_token:{name}) a fenced lock. A fair lock nobody waits for has no queue and shows
  as "lock"; a lock once taken as a fenced lock keeps its counter and shows as "fenced".
  Hold markers, request records, queues, deadlines, counters and read-hold keys are shown as part
  of their lock, never as locks of their own. A Redisson semaphore is a plain string of permits:
  it is found only while someone waits on its channel redisson_sc:{name}; one nobody waits on
  cannot be told from any other counter, and is not listed. Plain-lock waiters are not listed
  either: they wait on a pub/sub channel and leave no key.

Exit status: 0 on success, 1 on an error (one line on stderr), 2 on a usage error.
`;

const OPTIONS = {
  url: { type: 'string', default: DEFAULT_URL },
  json: { type: 'boolean', default: false },
  interval: { type: 'string', default: '500' },
  count: { type: 'string' },
  force: { type: 'boolean', default: false },
  yes: { type: 'boolean', short: 'y', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * Parses `argv` (without node and the script).
 *
 * @throws {@link CliError} `usage` for an unknown command or option, or a missing argument
 */
export function parseCommand(argv: readonly string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError('usage', `${error instanceof Error ? error.message : String(error)} (see deadbolt --help)`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') return { command: 'help' };
  const common = { url: values.url, json: values.json };
  switch (command) {
    case 'ls':
      return { command, ...common, pattern: onlyArgument(command, rest, false) ?? '*' };
    case 'show':
      return { command, ...common, name: requiredName(command, rest) };
    case 'watch':
      return {
        command,
        ...common,
        name: requiredName(command, rest),
        interval: positive('--interval', values.interval),
        count: values.count === undefined ? Infinity : positive('--count', values.count),
      };
    case 'unlock':
      return { command, ...common, name: requiredName(command, rest), force: values.force, yes: values.yes };
    default:
      throw new CliError(
        'usage',
        `unknown command "${command}" (commands: ls, show, watch, unlock; see deadbolt --help)`,
      );
  }
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

import { COMMON_OPTIONS, type CommandOptions, type CommandSyntax } from './commandSyntax.js';
import { PASSWORD_VARIABLE, URL_VARIABLE } from './connectionArgs.js';
import { EXIT_CODES } from './errors.js';

// Help lines stay within a terminal of this width; descriptions start at this column.
const WIDTH = 98;
const COMMAND_COLUMN = 26;
const OPTION_COLUMN = 26;

const ABOUT = `Inspect and force-unlock distributed locks stored in Redisson's layout on Redis, taken by
Deadbolt or by Java services using Redisson.`;

const KEYS = `What the keys can and cannot tell:
  Kinds are told apart by their keys: a hash with a "mode" field is a read-write lock; a lock
  hash with a queue (redisson_lock_queue:{name}) is a fair lock, with a token counter
  (redisson_lock_token:{name}) a fenced lock. A fair lock nobody waits for has no queue and shows
  as "lock"; a lock once taken as a fenced lock keeps its counter and shows as "fenced".
  Hold markers, request records, queues, deadlines, counters and read-hold keys are shown as part
  of their lock, never as locks of their own. A Redisson semaphore is a plain string of permits:
  it is found only while someone waits on its channel redisson_sc:{name}; one nobody waits on
  cannot be told from any other counter, and is not listed. Plain-lock waiters are not listed
  either: they wait on a pub/sub channel and leave no key.`;

// What each exit status means, in the words of the error codes that lead to it.
const EXIT_MEANINGS: readonly (readonly [number, string])[] = [
  [0, 'success'],
  [EXIT_CODES.redis, 'an error (a key that is not a lock, an error reply, an unlock not confirmed)'],
  [EXIT_CODES.usage, 'a bad command line: an option, a URL, a file that cannot be read'],
  [EXIT_CODES['not-found'], 'no such lock (unlock: nobody holds it)'],
  [EXIT_CODES.auth, 'the server refused the credentials'],
  [EXIT_CODES['no-permission'], "the server's ACL refused a command (NOPERM)"],
  [EXIT_CODES.unreachable, 'the server could not be reached (TLS included), or the connection was lost'],
  [EXIT_CODES.changed, 'unlock: the lock changed since it was read, nothing deleted (run again)'],
  [EXIT_CODES.interrupted, 'interrupted (Ctrl-C); a second Ctrl-C ends it at once'],
];

function environment(): string {
  return `Environment:\n${[
    entry(URL_VARIABLE, 'the server, when --url is not given', OPTION_COLUMN),
    entry(PASSWORD_VARIABLE, 'the password, when neither the URL nor --password-file gives one', OPTION_COLUMN),
  ].join('\n')}`;
}

function exitStatus(): string {
  const lines = EXIT_MEANINGS.map(([code, meaning]) => entry(String(code), meaning, 8));
  return `Exit status (every error is one line on stderr):\n${lines.join('\n')}`;
}

/** `deadbolt --help`: every command, the options they all take, and what the keys can tell. */
export function generalHelp(commands: readonly CommandSyntax[]): string {
  return sections(
    'Usage: deadbolt <command> [options]',
    ABOUT,
    `Commands:\n${commands.map((command) => entry(command.usage, command.summary, COMMAND_COLUMN)).join('\n')}`,
    `Options of every command:\n${optionLines(COMMON_OPTIONS)}`,
    'Each command takes only its own options besides these: "deadbolt <command> --help" lists them.',
    environment(),
    KEYS,
    exitStatus(),
  );
}

/** `deadbolt <command> --help`: that command and the options it takes, its own and the common ones. */
export function commandHelp(command: CommandSyntax): string {
  return sections(
    `Usage: deadbolt ${command.usage} [options]`,
    wrap(capitalized(command.summary), WIDTH).join('\n'),
    `Options:\n${optionLines({ ...command.options, ...COMMON_OPTIONS })}`,
    environment(),
    exitStatus(),
  );
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sections(...parts: string[]): string {
  return `${parts.join('\n\n')}\n`;
}

function optionLines(options: CommandOptions): string {
  return Object.values(options)
    .map((option) => entry(option.label, option.description, OPTION_COLUMN))
    .join('\n');
}

// `  label   description`, the description wrapped and its further lines aligned under it.
function entry(label: string, description: string, column: number): string {
  const lines = wrap(description, WIDTH - column);
  const first = `  ${label}`.padEnd(column);
  return lines.map((line, i) => (i === 0 ? first : ' '.repeat(column)) + line).join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

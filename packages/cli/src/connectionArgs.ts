import { readFile } from 'node:fs/promises';
import type { ConnectOptions } from './connection.js';
import { CliError } from './errors.js';
import { DEFAULT_URL, parseRedisUrl } from './url.js';

/** How to reach the server, as the command line says it: files are named here, read later. */
export interface ConnectionArgs {
  /** `--url`; absent, `REDIS_URL` or {@link DEFAULT_URL}. */
  readonly url?: string;
  /** `--password-file`: a file holding the password. */
  readonly passwordFile?: string;
  /** `--cacert`: the CA certificates (PEM) that signed the server's. */
  readonly cacert?: string;
  /** `--cert`: a client certificate (PEM). */
  readonly cert?: string;
  /** `--key`: the client certificate's private key (PEM). */
  readonly key?: string;
  /** `--insecure`: accept any server certificate. */
  readonly insecure: boolean;
}

/** The environment variable naming the server when `--url` does not: the usual name. */
export const URL_VARIABLE = 'REDIS_URL';
/** The environment variable holding the password when neither the URL nor a file does. */
export const PASSWORD_VARIABLE = 'DEADBOLT_PASSWORD';

/** The environment variables the command reads. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Where and how to connect: the URL from `--url`, else `REDIS_URL`, else the local server; the
 * password from the URL, else `--password-file`, else `DEADBOLT_PASSWORD`; the TLS files read.
 *
 * @throws {@link CliError} `usage` when a file cannot be read or is empty, or when the password is
 *   given both in the URL and in a file; `bad-url` for a malformed URL
 */
export async function connectionSettings(
  args: ConnectionArgs,
  env: Environment,
): Promise<{ readonly url: string; readonly options: ConnectOptions }> {
  const url = args.url ?? nonEmpty(env[URL_VARIABLE]) ?? DEFAULT_URL;
  const inUrl = parseRedisUrl(url).password !== undefined;
  if (inUrl && args.passwordFile !== undefined)
    throw new CliError('usage', 'the password is given twice: in the URL and in --password-file; give it once');
  const fromFile =
    args.passwordFile === undefined ? undefined : withoutLineEnd(await read('--password-file', args.passwordFile));
  const password = inUrl ? undefined : (fromFile ?? nonEmpty(env[PASSWORD_VARIABLE]));
  const [ca, cert, key] = await Promise.all([
    args.cacert === undefined ? undefined : read('--cacert', args.cacert),
    args.cert === undefined ? undefined : read('--cert', args.cert),
    args.key === undefined ? undefined : read('--key', args.key),
  ]);
  const tls = {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    ...(args.insecure ? { insecure: true } : {}),
  };
  return {
    url,
    options: { ...(password === undefined ? {} : { password }), ...(Object.keys(tls).length > 0 ? { tls } : {}) },
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

async function read(option: string, file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError('usage', `cannot read ${option} ${file}: ${reason}`, { cause: error });
  }
  if (text.trim() === '') throw new CliError('usage', `${option} ${file} is empty`);
  return text;
}

// `echo secret > file` ends the password with a line ending that is no part of it.
function withoutLineEnd(text: string): string {
  return text.replace(/\r?\n$/, '');
}

import { InvalidArgumentError, type Executor, type LockClientOptions } from '@deadbolt/core';
import { checkName, checkOptions } from '@deadbolt/core/kit';

/**
 * Where the module's `LockClient` runs. Either an executor over the application's own Redis
 * client, from any adapter (`ioredisExecutor(redis)`, `nodeRedisExecutor(client)`,
 * `valkeyGlideExecutor(glide, …)`), which stays the application's to close; or a `url`, for which
 * the module opens an ioredis client (the optional peers `ioredis` and
 * `@deadbolt/adapter-ioredis` must be installed) and closes it on shutdown.
 */
export type DeadboltConnection = { readonly executor: Executor } | { readonly url: string };

/** Options of `DeadboltModule.forRoot`, and what `forRootAsync`'s factory returns. */
export type DeadboltModuleOptions = DeadboltConnection & {
  /** Options of the `LockClient` the module builds. */
  readonly client?: LockClientOptions;
};

/** Validates module options before anything is opened; throws `InvalidArgumentError` naming the bad one. */
export function checkModuleOptions(value: unknown): DeadboltModuleOptions {
  const options = checkOptions<{ executor: Executor; url: string; client: LockClientOptions }>(
    value,
    ['executor', 'url', 'client'],
    'options',
  );
  if ((options.executor === undefined) === (options.url === undefined))
    throw new InvalidArgumentError('options', 'needs exactly one of `executor` and `url`');
  const client = options.client === undefined ? {} : { client: options.client };
  const { executor, url } = options;
  if (executor !== undefined) return { executor, ...client };
  if (!URL.canParse(checkName(url, 'options.url')))
    throw new InvalidArgumentError('options.url', `is not a URL: ${JSON.stringify(url)}`);
  return { url: url as string, ...client };
}

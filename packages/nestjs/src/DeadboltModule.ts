import { Inject, Module, type DynamicModule, type ModuleMetadata, type OnApplicationShutdown } from '@nestjs/common';
import { LockClient } from '@deadbolt/core';
import { checkFunction, checkOptions } from '@deadbolt/core/kit';
import { checkModuleOptions, type DeadboltModuleOptions } from './DeadboltModuleOptions.js';
import { openLockClient, type OpenedLockClient } from './openLockClient.js';
import { DEADBOLT_CONNECTION } from './tokens.js';

/** Options of `DeadboltModule.forRootAsync`: the module options come from a factory Nest injects into. */
export interface DeadboltModuleAsyncOptions {
  /** Modules whose providers the factory needs (the one that provides your Redis client, say). */
  readonly imports?: ModuleMetadata['imports'];
  /** Tokens of the providers passed to `useFactory`, in order. */
  readonly inject?: readonly (string | symbol | (abstract new (...args: never[]) => unknown))[];
  /** Returns the module options, from the injected providers. */
  useFactory(...args: never[]): DeadboltModuleOptions | Promise<DeadboltModuleOptions>;
}

/**
 * Provides one `LockClient` to the whole application (a global module), for constructor
 * injection (`@Inject(LockClient)`) and for `@WithLock` methods, and closes it on shutdown
 * (`onApplicationShutdown`), with the Redis client it opened for a `url`.
 *
 * @example
 * ```ts
 * import { DeadboltModule, lockSignal, WithLock } from '@deadbolt/nestjs';
 * // ...
 * static connect(url: string): DynamicModule {
 *   return { module: InvoiceModule, imports: [DeadboltModule.forRoot({ url })], providers: [InvoiceService] };
 * }
 * ```
 */
@Module({})
export class DeadboltModule implements OnApplicationShutdown {
  readonly #opened: OpenedLockClient;

  /**
   * Nest creates the module; applications call {@link DeadboltModule.forRoot} or {@link DeadboltModule.forRootAsync}.
   *
   * @internal
   */
  constructor(@Inject(DEADBOLT_CONNECTION) opened: OpenedLockClient) {
    this.#opened = opened;
  }

  /**
   * The module with options known up front.
   *
   * @throws `InvalidArgumentError` for options that are not exactly one of `executor` and `url`, or an unknown option
   */
  static forRoot(options: DeadboltModuleOptions): DynamicModule {
    const checked = checkModuleOptions(options);
    return deadboltModule([], { provide: DEADBOLT_CONNECTION, useFactory: () => openLockClient(checked) });
  }

  /**
   * The module with options from a factory, for a Redis client or a URL that other providers
   * give (a `ConfigService`, your own Redis module).
   *
   * @throws `InvalidArgumentError` when `useFactory` is not a function, or for an unknown option;
   *   the factory's options are checked when Nest calls it
   */
  static forRootAsync(options: DeadboltModuleAsyncOptions): DynamicModule {
    const {
      imports = [],
      inject = [],
      useFactory,
    } = checkOptions<DeadboltModuleAsyncOptions>(options, ['imports', 'inject', 'useFactory']);
    checkFunction(useFactory, 'options.useFactory');
    // Checked just above: a function.
    const factory = useFactory as DeadboltModuleAsyncOptions['useFactory'];
    return deadboltModule(imports, {
      provide: DEADBOLT_CONNECTION,
      inject: [...inject],
      useFactory: async (...args: never[]) => openLockClient(checkModuleOptions(await factory(...args))),
    });
  }

  /** Closes the client, and the Redis client the module opened for a `url`. */
  async onApplicationShutdown(): Promise<void> {
    await this.#opened.close();
  }
}

function deadboltModule(
  imports: NonNullable<ModuleMetadata['imports']>,
  connection: NonNullable<ModuleMetadata['providers']>[number],
): DynamicModule {
  return {
    module: DeadboltModule,
    global: true,
    imports,
    providers: [
      connection,
      { provide: LockClient, inject: [DEADBOLT_CONNECTION], useFactory: (opened: OpenedLockClient) => opened.client },
    ],
    exports: [LockClient],
  };
}

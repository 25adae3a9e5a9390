import { HttpException, Inject } from '@nestjs/common';
import { LockClient, LockError, LockWaitTimeoutError } from '@deadbolt/core';
import { checkAcquireOptions, checkFunction, checkLockName, checkOptions } from '@deadbolt/core/kit';
import { InvalidArgumentError } from '@deadbolt/core';
import { holdSignals } from './lockSignal.js';

/** Options of {@link WithLock}. Every time is in milliseconds. */
export interface WithLockOptions {
  /** Give up after waiting this long, with `LockWaitTimeoutError`. Default: no limit. */
  waitTime?: number;
  /** Hold the lock for this long at most; without it the watchdog keeps it until the method returns. */
  leaseTime?: number;
  /**
   * Throw Nest's `HttpException` with this status (423 Locked, or 409 Conflict) instead of
   * `LockWaitTimeoutError` when the wait times out, so an HTTP caller gets that status rather
   * than a 500. The original error is its `cause`. Default: the `LockWaitTimeoutError` itself.
   */
  waitTimeoutStatus?: 409 | 423;
}

/** The property Nest injects the module's `LockClient` into, on classes with `@WithLock` methods. */
const LOCKS = Symbol('@deadbolt/nestjs:locks');
const injected = new WeakSet<object>();

/**
 * Runs the decorated async method under a lock, as `withLock` does: acquired before the method
 * runs (waiting as long as `options.waitTime`), renewed while it runs, released when it returns
 * or throws. The lock's signal is reachable from inside through {@link lockSignal}. The class
 * must be a Nest provider or controller of an application that imports `DeadboltModule`.
 *
 * @param name - the lock's name, or a function of the method's arguments that returns it
 * @throws `InvalidArgumentError` at decoration, for a bad name or option or a method that is not a function
 */
export function WithLock<Args extends unknown[] = never[]>(
  name: string | ((...args: Args) => string),
  options: WithLockOptions = {},
) {
  const lockName = typeof name === 'string' ? checkLockName(name) : (checkFunction(name, 'name'), name);
  const { waitTime, leaseTime, waitTimeoutStatus } = checkOptions<WithLockOptions>(options, [
    'waitTime',
    'leaseTime',
    'waitTimeoutStatus',
  ]);
  if (waitTimeoutStatus !== undefined && waitTimeoutStatus !== 409 && waitTimeoutStatus !== 423)
    throw new InvalidArgumentError('options.waitTimeoutStatus', `must be 409 or 423, got ${String(waitTimeoutStatus)}`);
  const acquire = {
    ...(waitTime === undefined ? {} : { waitTime }),
    ...(leaseTime === undefined ? {} : { leaseTime }),
  };
  checkAcquireOptions(acquire, Infinity);

  return <M extends (...args: Args) => Promise<unknown>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    const method: unknown = descriptor.value;
    checkFunction(method, `@WithLock ${String(key)}`);
    if (!injected.has(target)) {
      injected.add(target);
      Inject(LockClient)(target, LOCKS);
    }
    async function locked(this: { [LOCKS]?: LockClient }, ...args: Args): Promise<unknown> {
      const locks = this[LOCKS];
      if (locks === undefined)
        throw new LockError(`@WithLock ${String(key)}: no LockClient was injected; import DeadboltModule`);
      const lock = locks.lock(typeof lockName === 'string' ? lockName : lockName(...args));
      try {
        return await lock.withLock(
          (signal) => holdSignals.run(signal, () => Reflect.apply(method as M, this, args)),
          acquire,
        );
      } catch (error) {
        if (waitTimeoutStatus !== undefined && error instanceof LockWaitTimeoutError)
          throw new HttpException(error.message, waitTimeoutStatus, { cause: error });
        throw error;
      }
    }
    descriptor.value = locked as M;
  };
}

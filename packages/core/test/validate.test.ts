import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, Lock, LockClient, type Executor } from '../src/index.js';
import { checkAcquireOptions } from '../src/lock/AcquireOptions.js';
import { checkCount } from '../src/options/validate.js';
import { coreRuntime } from '../src/runtime/CoreRuntime.js';
import { LOCK_RUNTIME, lockRuntime } from '../src/runtime/LockRuntime.js';

// An executor that fails the test if anything reaches it: bad input must be refused before Redis.
function untouchable(): Executor & { calls: number } {
  const fail = (): Promise<never> => {
    touched.calls++;
    return Promise.reject(new Error('reached Redis'));
  };
  const touched = {
    calls: 0,
    isCluster: false,
    evalsha: fail,
    eval: fail,
    command: fail,
    subscribe: fail,
    unsubscribe: fail,
    listen() {},
    close: async () => {},
  };
  return touched;
}

function expectInvalid(fn: () => unknown, argument: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
    expect((error as Error).message).toContain(argument);
    return;
  }
  expect.fail(`expected InvalidArgumentError for ${argument}`);
}

describe('acquire options', () => {
  it.each([
    [{ leaseTime: -1 }, 'options.leaseTime'],
    [{ leaseTime: 0 }, 'options.leaseTime'],
    [{ leaseTime: Number.NaN }, 'options.leaseTime'],
    [{ leaseTime: Infinity }, 'options.leaseTime'],
    [{ leaseTime: 1.5 }, 'options.leaseTime'],
    [{ leaseTime: '100' }, 'options.leaseTime'],
    [{ maxHoldTime: 0 }, 'options.maxHoldTime'],
    [{ maxHoldTime: -1 }, 'options.maxHoldTime'],
    [{ maxHoldTime: Infinity }, 'options.maxHoldTime'],
    [{ maxHoldTime: '100' }, 'options.maxHoldTime'],
    [{ maxHoldTime: 1_000, leaseTime: 500 }, 'options.maxHoldTime'],
    [{ waitTime: -5 }, 'options.waitTime'],
    [{ waitTime: Number.NaN }, 'options.waitTime'],
    [{ signal: {} }, 'options.signal'],
    [{ owner: '' }, 'options.owner'],
    [{ owner: 'a b' }, 'options.owner'],
    [{ owner: 42 }, 'options.owner'],
    [{ leasetime: 100 }, 'options.leasetime'],
    ['fast', 'options'],
  ])('rejects %j naming %s', (options, argument) => {
    expectInvalid(() => checkAcquireOptions(options, 0), argument);
  });

  it('accepts an infinite wait and applies the default', () => {
    expect(checkAcquireOptions({ waitTime: Infinity }, 0).waitTime).toBe(Infinity);
    expect(checkAcquireOptions(undefined, 0).waitTime).toBe(0);
    expect(checkAcquireOptions({}, Infinity).waitTime).toBe(Infinity);
  });
});

describe('client options', () => {
  it.each([
    [{ watchdogTimeout: 10 }, 'options.watchdogTimeout'],
    [{ watchdogTimeout: -1 }, 'options.watchdogTimeout'],
    [{ commandTimeout: Number.NaN }, 'options.commandTimeout'],
    [{ commandTimeout: 0 }, 'options.commandTimeout'],
    [{ defaultWaitTime: -1 }, 'options.defaultWaitTime'],
    [{ defaultWaitTime: Number.NaN }, 'options.defaultWaitTime'],
    [{ defaultWaitTime: 1.5 }, 'options.defaultWaitTime'],
    [{ defaultWaitTime: '100' }, 'options.defaultWaitTime'],
    [{ pubsub: 'loud' }, 'options.pubsub'],
    [{ clientId: '' }, 'options.clientId'],
    [{ clientId: 'a:b' }, 'options.clientId'],
    [{ watchdog: 1000 }, 'options.watchdog'],
    [{ replicaSync: true }, 'options.replicaSync'],
    [{ replicaSync: {} }, 'options.replicaSync.timeout'],
    [{ replicaSync: { timeout: 0 } }, 'options.replicaSync.timeout'],
    [{ replicaSync: { timeout: Infinity } }, 'options.replicaSync.timeout'],
    [{ replicaSync: { timeout: 100, replicas: 0 } }, 'options.replicaSync.replicas'],
    [{ replicaSync: { timeout: 100, replicas: 1.5 } }, 'options.replicaSync.replicas'],
    [{ replicaSync: { timeout: 100, retries: -1 } }, 'options.replicaSync.retries'],
    [{ replicaSync: { timeout: 100, retries: '2' } }, 'options.replicaSync.retries'],
    [{ replicaSync: { timeout: 100, onFailure: 'throw' } }, 'options.replicaSync.onFailure'],
  ])('rejects %j naming %s', (options, argument) => {
    expectInvalid(() => new LockClient(untouchable(), options as never), argument);
  });

  it('waits without limit by default, and as long as defaultWaitTime says when given', () => {
    expect(coreRuntime(new LockClient(untouchable())).defaultWaitTime).toBe(Infinity);
    expect(new LockClient(untouchable(), { defaultWaitTime: 2_000 }).options.defaultWaitTime).toBe(2_000);
    expect(coreRuntime(new LockClient(untouchable(), { defaultWaitTime: 0 })).defaultWaitTime).toBe(0);
  });

  it('leaves replica sync off by default and applies its defaults when on', () => {
    const off = new LockClient(untouchable());
    expect(off.options.replicaSync).toBeUndefined();
    expect(coreRuntime(off).confirmReplicas).toBeUndefined();
    const client = new LockClient(untouchable(), { replicaSync: { timeout: 250 } });
    expect(coreRuntime(client).confirmReplicas).toBeTypeOf('function');
    expect(client.options.replicaSync).toEqual({ replicas: 1, timeout: 250, retries: 0 });
  });
});

describe('lock entry points', () => {
  const executor = untouchable();
  const client = new LockClient(executor);

  it.each([[''], [42], [null], [undefined], [{}], ['a{'], ['x{}y'], ['{}']])('refuses the name %j', (name) => {
    expectInvalid(() => client.lock(name as never), 'name');
  });

  it('accepts names with a hash tag or without braces', () => {
    for (const name of ['orders', 'tenant:{7}:orders', '{a}b}', 'ключ 🔒']) expect(client.lock(name).name).toBe(name);
  });

  it('refuses bad options without reaching Redis', async () => {
    const lock = client.lock('orders');
    await expect(lock.acquire({ leaseTime: -1 })).rejects.toMatchObject({ argument: 'options.leaseTime' });
    await expect(lock.tryAcquire({ waitTime: Number.NaN })).rejects.toMatchObject({ argument: 'options.waitTime' });
    await expect(lock.withLock('not a function' as never)).rejects.toMatchObject({ argument: 'fn' });
    await expect(lock.holdCount()).rejects.toMatchObject({ argument: 'owner' });
    await expect(lock.isHeldBy('')).rejects.toMatchObject({ argument: 'owner' });
    expect(executor.calls).toBe(0);
  });

  it("refuses a host whose runtime is not a LockClient's: a lock needs more of it than a kind does", () => {
    const runtime = { clientId: 'fake' };
    const host = { id: 'fake', [LOCK_RUNTIME]: () => runtime } as never;
    expect(lockRuntime(host)).toBe(runtime);
    expectInvalid(() => new Lock(host, 'orders'), 'client');
  });

  it('refuses work after close', async () => {
    const closing = new LockClient(untouchable());
    await closing.close();
    await expect(closing.lock('x').acquire()).rejects.toMatchObject({ name: 'ClientClosedError' });
    await expect(closing.lock('x').isLocked()).rejects.toMatchObject({ name: 'ClientClosedError' });
  });
});

describe('checkCount', () => {
  it.each([-1, 1.5, 2 ** 53, Number.NaN, Infinity, '3'])('refuses %s, naming the argument', (value) => {
    expectInvalid(() => checkCount(value, 'permits', 0), 'permits');
  });

  it('refuses a number past -(2^53 − 1) however low min is', () => {
    expectInvalid(() => checkCount(-(2 ** 53), 'permits', -Infinity), 'permits');
  });

  it('accepts every safe whole number from min up', () => {
    expect(checkCount(Number.MAX_SAFE_INTEGER, 'permits', 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(checkCount(-Number.MAX_SAFE_INTEGER, 'permits', -Number.MAX_SAFE_INTEGER)).toBe(-Number.MAX_SAFE_INTEGER);
    expectInvalid(() => checkCount(0, 'count', 1), 'count');
  });
});

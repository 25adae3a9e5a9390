import 'reflect-metadata';
import { HttpException, Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { InvalidArgumentError, LockClient, LockNotHeldError, LockWaitTimeoutError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { useStandalone, type StandaloneTarget } from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadboltModule, lockSignal, WithLock } from '../src/index.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Injectable()
class Billing {
  running = 0;
  mostAtOnce = 0;

  constructor(@Inject(LockClient) readonly locks: LockClient) {}

  @WithLock('billing:run')
  async run(ms: number): Promise<boolean> {
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await pause(ms);
    this.running--;
    return lockSignal().aborted;
  }

  @WithLock((invoice: string) => `billing:invoice:${invoice}`, { waitTime: 50, waitTimeoutStatus: 423 })
  async charge(invoice: string): Promise<string> {
    return `charged ${invoice}`;
  }

  @WithLock('billing:strict', { waitTime: 50 })
  async strict(): Promise<void> {}
}

describe('DeadboltModule', () => {
  let server: StandaloneTarget;
  let redis: Redis;
  beforeAll(async () => {
    server = await useStandalone();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    await redis.quit();
    await server.stop();
  });

  async function application() {
    const moduleRef = await Test.createTestingModule({
      imports: [DeadboltModule.forRoot({ executor: ioredisExecutor(redis) })],
      providers: [Billing],
    }).compile();
    return moduleRef.init();
  }

  it('@WithLock runs overlapping calls one at a time, with the hold signal reachable', async () => {
    const app = await application();
    const billing = app.get(Billing);
    expect(await Promise.all([billing.run(100), billing.run(100), billing.run(100)])).toEqual([false, false, false]);
    expect(billing.mostAtOnce).toBe(1);
    expect(await billing.locks.lock('billing:run').isLocked()).toBe(false);
    expect(() => lockSignal()).toThrow(LockNotHeldError);
    await app.close();
  });

  it('names the lock from the arguments, and maps a wait timeout to HTTP only when asked', async () => {
    const app = await application();
    const billing = app.get(Billing);
    const rival = await billing.locks.lock('billing:invoice:7').acquire();
    const refused = await billing.charge('7').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpException);
    expect((refused as HttpException).getStatus()).toBe(423);
    expect((refused as HttpException).cause).toBeInstanceOf(LockWaitTimeoutError);
    expect(await billing.charge('8')).toBe('charged 8');
    await rival.release();

    const held = await billing.locks.lock('billing:strict').acquire();
    await expect(billing.strict()).rejects.toThrow(LockWaitTimeoutError);
    await held.release();
    await app.close();
  });

  it('closes its LockClient on shutdown and leaves the application its Redis client', async () => {
    const app = await application();
    const locks = app.get(LockClient);
    await app.close();
    expect(locks.closed).toBe(true);
    expect(await redis.ping()).toBe('PONG');
  });

  it('forRootAsync builds the client from a node-redis client another module provides', async () => {
    const client = await createClient({ url: server.url }).connect();
    @Module({ providers: [{ provide: 'REDIS', useValue: client }], exports: ['REDIS'] })
    class RedisModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        DeadboltModule.forRootAsync({
          imports: [RedisModule],
          inject: ['REDIS'],
          useFactory: (redisClient: typeof client) => ({ executor: nodeRedisExecutor(redisClient) }),
        }),
      ],
      providers: [Billing],
    }).compile();
    const app = await moduleRef.init();
    expect(await app.get(Billing).charge('9')).toBe('charged 9');
    await app.close();
    expect(client.isOpen).toBe(true);
    await client.close();
  });

  it('opens an ioredis client for a url and closes it on shutdown', async () => {
    const name = 'deadbolt-nestjs-url';
    const clients = async () =>
      ((await redis.client('LIST')) as string).split('\n').filter((line) => line.includes(' age='));
    const before = (await clients()).length;
    const moduleRef = await Test.createTestingModule({
      imports: [DeadboltModule.forRoot({ url: server.url, client: { clientId: name } })],
      providers: [Billing],
    }).compile();
    const app = await moduleRef.init();
    expect(await app.get(Billing).run(1)).toBe(false);
    expect((await clients()).length).toBeGreaterThan(before);
    await app.close();
    // ioredis's QUIT has been answered; the server drops the connection right after.
    await expect.poll(async () => (await clients()).length).toBe(before);
  });

  it('rejects bad options before opening anything', () => {
    expect(() => DeadboltModule.forRoot({ url: 'not a url' })).toThrow(InvalidArgumentError);
    expect(() => DeadboltModule.forRoot({} as never)).toThrow('needs exactly one of `executor` and `url`');
    expect(() => WithLock('')).toThrow(InvalidArgumentError);
    expect(() => WithLock('x', { waitTime: -1 })).toThrow(expect.objectContaining({ argument: 'options.waitTime' }));
    expect(() => WithLock('x', { waitTimeoutStatus: 500 as 423 })).toThrow(
      expect.objectContaining({ argument: 'options.waitTimeoutStatus' }),
    );
  });
});

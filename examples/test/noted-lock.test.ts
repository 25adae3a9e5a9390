import { lockCommands, type Command, type CommandContext } from '@deadbolt/core/kit';
import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notedAcquire, notedHolder, notedLockKind, type NotedAcquireInput } from '../src/NotedLock.js';

// The example kind of the guide "Writing a lock kind" (src/NotedLock.ts), tested as a kind's own
// package would test it: its typed commands without Redis, its acquire script's rules on a server
// of its own. The example program (writing-a-lock-kind.ts) runs it end to end in examples.test.ts.
const COMMAND_TIMEOUT = 10_000;
const context: CommandContext = {
  publish: 'publish',
  recordTtl: 2 * COMMAND_TIMEOUT,
  now: 0,
  deadline: 1_700_000_010_000,
};
const input: NotedAcquireInput = {
  name: 'orders:42',
  field: 'client-1:job',
  hold: 'i:1',
  lease: 30_000,
  note: 'host-a pid 1',
};

describe('NotedLock commands, without Redis', () => {
  it('send KEYS and ARGV in the order the script header states, every key in the lock slot', () => {
    expect(notedAcquire.keys(input)).toEqual([
      'orders:42',
      'deadbolt_holds:{orders:42}',
      'deadbolt_request:{orders:42}:i:1',
    ]);
    expect(notedAcquire.args(input, context)).toEqual([
      30_000,
      'client-1:job',
      'i:1',
      1_700_000_010_000,
      'host-a pid 1',
    ]);
    expect(notedAcquire.keys({ ...input, name: '{orders}:42' })).toEqual([
      '{orders}:42',
      'deadbolt_holds:{orders}:42',
      'deadbolt_request:{orders}:42:i:1',
    ]);
    expect(notedHolder.keys({ name: 'orders:42' })).toEqual(['orders:42']);
  });

  it('decode what the scripts reply', () => {
    expect(notedAcquire.decode(null)).toEqual({ status: 'taken', grant: null });
    expect(notedAcquire.decode(1234)).toEqual({ status: 'heldByOther', ttl: 1234 });
    expect(notedAcquire.decode(-1)).toEqual({ status: 'heldByOther', ttl: Infinity });
    expect(notedHolder.decode(null)).toBeNull();
    expect(notedHolder.decode(['client-1:job:7', 'host-a pid 1'])).toEqual({
      clientId: 'client-1',
      owner: 'job:7',
      note: 'host-a pid 1',
    });
    expect(notedHolder.decode(['6f1c-uuid:57', null])).toEqual({ clientId: '6f1c-uuid', owner: '57', note: null });
  });

  it('the declaration leaves the note on every acquire and keeps the reentrant lock for the rest', () => {
    const kind = notedLockKind('host-a pid 1')('orders:42');
    const acquire = kind.acquire({ field: 'client-1:job', hold: 'i:1', lease: 30_000, waitTime: 0 });
    expect(acquire.script).toBe(notedAcquire.script);
    expect(acquire.keys).toEqual(['orders:42', 'deadbolt_holds:{orders:42}', 'deadbolt_request:{orders:42}:i:1']);
    expect(acquire.args(context)).toEqual([30_000, 'client-1:job', 'i:1', 1_700_000_010_000, 'host-a pid 1']);
    expect(kind.release('client-1:job', 'i:1').script).toBe(lockCommands.release.script);
    expect(kind.renew).toBe(lockCommands.renew);
    expect(kind.waitChannel('client-1:job')).toBe('redisson_lock__channel:{orders:42}');
  });
});

describe('the NotedLock acquire script on Redis', () => {
  let node: RedisNode | undefined;
  beforeAll(async () => {
    node = await startStandalone();
  });
  afterAll(() => node?.stop());

  const server = () => {
    if (!node) throw new Error('redis-server did not start');
    return node;
  };
  // The server's time in milliseconds, as the client estimates it for a request's deadline.
  const serverNow = async () => {
    const [seconds, micros] = (await server().command('TIME')) as [string, string];
    return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
  };
  // Runs a command as the client would: its deadline `timeLeft` ms after the server's time.
  const run = async <Input>(command: Command<Input, unknown>, sent: Input, timeLeft = COMMAND_TIMEOUT) => {
    const keys = command.keys(sent);
    const sentContext = { ...context, deadline: (await serverNow()) + timeLeft };
    return server().command('EVAL', command.script.source, keys.length, ...keys, ...command.args(sent, sentContext));
  };
  const acquire = (change: Partial<NotedAcquireInput>, timeLeft?: number) =>
    run(notedAcquire, { ...input, ...change }, timeLeft);

  it("counts a re-sent request once, and the note is the first holder's", async () => {
    expect(await acquire({ name: 'resent' })).toBeNull();
    expect(await acquire({ name: 'resent', note: 'ignored' })).toBeNull(); // the same hold id, sent again
    expect(await server().command('HGETALL', 'resent')).toEqual(['client-1:job', '1', 'note', 'host-a pid 1']);
    expect(await acquire({ name: 'resent', hold: 'i:2', note: 'a re-entry' })).toBeNull();
    expect(await server().command('HGETALL', 'resent')).toEqual(['client-1:job', '2', 'note', 'host-a pid 1']);
  });

  it('never shortens the lease another hold believes in', async () => {
    await acquire({ name: 'lease', lease: 60_000 });
    await acquire({ name: 'lease', hold: 'i:2', lease: 100 });
    expect(Number(await server().command('PTTL', 'lease'))).toBeGreaterThan(50_000);
  });

  it("replies the holder's TTL to another owner and changes nothing", async () => {
    await acquire({ name: 'taken', lease: 60_000 });
    const ttl = await acquire({ name: 'taken', field: 'client-2:other', hold: 'j:1', note: 'a rival' });
    expect(Number(ttl)).toBeGreaterThan(50_000);
    expect(await server().command('HGETALL', 'taken')).toEqual(['client-1:job', '1', 'note', 'host-a pid 1']);
  });

  it('refuses an attempt past its deadline and takes nothing', async () => {
    await expect(acquire({ name: 'late' }, -1)).rejects.toThrow(/DEADBOLT_LATE \d+ \d+/);
    expect(await server().command('EXISTS', 'late', 'deadbolt_holds:{late}', 'deadbolt_request:{late}:i:1')).toBe(0);
  });

  it('takes nothing for an attempt given back before it arrived', async () => {
    // The give-back of an attempt whose outcome was unknown ran first: the plain lock's release
    // recorded it in the attempt's request record, so the attempt, arriving late, takes nothing.
    expect(await run(lockCommands.release, { name: 'given-back', field: input.field, hold: input.hold })).toBeNull();
    expect(await acquire({ name: 'given-back' })).toBe(0);
    expect(await server().command('EXISTS', 'given-back')).toBe(0);
  });
});

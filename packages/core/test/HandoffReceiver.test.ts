// A waiter's side of a local hand-off without Redis: what the receiver sends, what the waiter
// collects for each outcome of the hand-off script, and what goes back when the outcome is
// unknown. Real hand-offs run in the conformance suite (localHandoff).
import { describe, expect, it, vi } from 'vitest';
import type { HandOffInput } from '../src/commands/inputs.js';
import type { HandOffReply } from '../src/commands/replies.js';
import { RedisUnavailableError } from '../src/errors/LockError.js';
import { HandoffReceiver, type ReceivingLock } from '../src/handoff/HandoffReceiver.js';
import { DEFAULT_LOCAL_HANDOFF } from '../src/handoff/LocalHandoffOptions.js';
import { LocalHandoffs, type HandoffStreak } from '../src/handoff/LocalHandoffs.js';
import type { LockRuntime } from '../src/runtime/LockRuntime.js';
import type { Call, Command } from '../src/scripts/Command.js';
import type { Script } from '../src/scripts/Script.js';

const KEY = 'handoff\norders';
const STREAK: HandoffStreak = { passes: 1, since: 0 };
const FROM = { field: 'client:holder', hold: 'h-from' };

/** A lock whose hand-off script answers `outcome`; `sent` records each hand-off's input. */
function receivingLock(outcome: () => Promise<HandOffReply<string>>) {
  const sent: HandOffInput[] = [];
  const giveBack = vi.fn((_field: string, _hold: string) => Promise.resolve());
  const handOff: Command<HandOffInput, HandOffReply<string>> = {
    script: { name: 'handoff' } as Script,
    // Binding the call reads the keys of its input: where the test sees what was sent.
    keys: (input) => {
      sent.push(input);
      return [];
    },
    args: () => [],
    decode: (reply) => reply as HandOffReply<string>,
  };
  let ids = 0;
  const runtime = {
    newHoldId: () => `h${++ids}`,
    run: <Reply>(_call: Call<Reply>) => outcome() as Promise<Reply>,
  } as unknown as LockRuntime;
  const lock: ReceivingLock<string> = { runtime, name: 'orders', handOff, key: KEY, giveBack };
  return { lock, sent, giveBack };
}

function enlisted(lock: ReceivingLock<string>) {
  const handoffs = new LocalHandoffs(DEFAULT_LOCAL_HANDOFF);
  const receiver = new HandoffReceiver(handoffs, lock, 'client:waiter', 5_000, true);
  const interrupt = vi.fn();
  receiver.interrupt = interrupt;
  receiver.enlist();
  return { handoffs, receiver, interrupt };
}

describe('HandoffReceiver', () => {
  it('is what a release of its lock claims, and sends the hand-off from the holder to itself with its lease', async () => {
    const { lock, sent } = receivingLock(() => Promise.resolve({ status: 'passed', grant: 'token 7' }));
    const { handoffs, receiver, interrupt } = enlisted(lock);
    const claim = handoffs.claim(KEY, undefined);
    expect(typeof claim === 'object' && claim.receiver).toBe(receiver);
    expect(receiver.collect()).toBeUndefined();

    const releasing = receiver.receiveFrom(FROM, STREAK);
    // From the pass on, the waiter counts as the holder: another task of the client waits its turn.
    expect(handoffs.heldByAnother(KEY, 'client:other')).toBe(true);
    await expect(releasing).resolves.toBe(true);
    expect(sent).toEqual([{ name: 'orders', from: FROM, to: { field: 'client:waiter', hold: 'h1' }, lease: 5_000 }]);
    // The waiter's sleep ends at once, before the script's reply.
    expect(interrupt).toHaveBeenCalledTimes(1);
    const passed = await receiver.collect();
    expect(passed).toEqual({
      hold: 'h1',
      grant: 'token 7',
      acquiredAt: expect.any(Number),
      streak: STREAK,
      endStanding: expect.any(Function),
    });
    // Collected once: the next sleep starts with nothing passed.
    expect(receiver.collect()).toBeUndefined();
    // The hold it becomes ends the count.
    passed?.endStanding?.();
    expect(handoffs.heldByAnother(KEY, 'client:other')).toBe(false);
  });

  it("a waiter with a lease of its own is passed the lock without counting as standing: its lease may end before the watchdog's", async () => {
    const { lock } = receivingLock(() => Promise.resolve({ status: 'passed', grant: 'token 8' }));
    const handoffs = new LocalHandoffs(DEFAULT_LOCAL_HANDOFF);
    const receiver = new HandoffReceiver(handoffs, lock, 'client:waiter', 5_000, false);
    const releasing = receiver.receiveFrom(FROM, STREAK);
    expect(handoffs.heldByAnother(KEY, 'client:other')).toBe(false);
    await releasing;
    expect((await receiver.collect())?.endStanding).toBeUndefined();
  });

  it.each([
    ['stillHeld', true],
    ['released', true],
    ['notHeld', false],
  ] as const)('a hand-off that answers %s passes nothing; the release reports %s', async (status, stood) => {
    const { lock, giveBack } = receivingLock(() => Promise.resolve({ status }));
    const { handoffs, receiver, interrupt } = enlisted(lock);
    await expect(receiver.receiveFrom(FROM, STREAK)).resolves.toBe(stood);
    // Woken to try again: a lock released to everyone is taken by an attempt.
    expect(interrupt).toHaveBeenCalledTimes(1);
    await expect(receiver.collect()).resolves.toBeNull();
    expect(giveBack).not.toHaveBeenCalled();
    expect(handoffs.heldByAnother(KEY, 'client:other')).toBe(false);
  });

  it('an unknown outcome gives the hold it may have passed back by id, and the waiter gets nothing', async () => {
    const lost = new RedisUnavailableError('connection lost');
    const { lock, giveBack } = receivingLock(() => Promise.reject(lost));
    const { handoffs, receiver } = enlisted(lock);
    await expect(receiver.receiveFrom(FROM, STREAK)).rejects.toBe(lost);
    await expect(receiver.collect()).resolves.toBeNull();
    expect(giveBack).toHaveBeenCalledWith('client:waiter', 'h1');
    expect(handoffs.heldByAnother(KEY, 'client:other')).toBe(false);
  });

  it('any other failure gives nothing back (the script did not run) and never rejects the waiter', async () => {
    const refused = new Error('NOPERM');
    const { lock, giveBack } = receivingLock(() => Promise.reject(refused));
    const { receiver } = enlisted(lock);
    await expect(receiver.receiveFrom(FROM, STREAK)).rejects.toBe(refused);
    await expect(receiver.collect()).resolves.toBeNull();
    expect(giveBack).not.toHaveBeenCalled();
  });

  it('once closed, a release no longer finds it, and a late enlist leaves it off the list', () => {
    const { lock } = receivingLock(() => Promise.resolve({ status: 'passed', grant: 'x' }));
    const { handoffs, receiver } = enlisted(lock);
    receiver.close();
    expect(handoffs.claim(KEY, undefined)).toBeUndefined();
    receiver.enlist();
    expect(handoffs.size).toBe(0);
  });
});

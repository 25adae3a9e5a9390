import { describe, expect, it } from 'vitest';
import { LockError } from '../src/errors/LockError.js';
import { commandsCalledBy, permissionDenied, PermissionDeniedError } from '../src/errors/PermissionDeniedError.js';
import type { Executor } from '../src/executor/Executor.js';
import { defineScript } from '../src/scripts/Script.js';
import { ScriptRunner } from '../src/scripts/ScriptRunner.js';

// Redis 7.0.15's replies, as this machine's server sends them.
const REPLIES = {
  evalsha: "NOPERM this user has no permissions to run the 'evalsha' command",
  keys: 'NOPERM this user has no permissions to access one of the keys used as arguments',
  channels: 'NOPERM this user has no permissions to access one of the channels used as arguments',
  scriptCommand:
    "ERR The user executing the script can't run this command or subcommand script: 852e09c5, on @user_script:1.",
  scriptKey:
    "ERR The user executing the script can't access at least one of the keys mentioned in the command arguments script: b37bbc34, on @user_script:1.",
  scriptChannel:
    "ERR The user executing the script can't publish to the channel mentioned in the command script: 852e09c5, on @user_script:1.",
};

// Redis 8.0.2's and Valkey 8.1.1's, which differ from 7.0's (7.2 changed them).
const REPLIES_8 = {
  evalsha: "NOPERM User acl-user has no permissions to run the 'evalsha' command",
  keys: 'NOPERM No permissions to access a key',
  channels: 'NOPERM No permissions to access a channel',
  scriptCommand:
    "ERR ACL failure in script: User acl-user has no permissions to run the 'publish' command script: 28e650f6, on @user_script:1.",
  scriptKey: 'ERR ACL failure in script: No permissions to access a key script: eefb072c, on @user_script:1.',
  scriptChannel: 'ERR ACL failure in script: No permissions to access a channel script: 9adc094c, on @user_script:1.',
};

const script = defineScript(
  'test/acl',
  "redis.call('hincrby', KEYS[1], 'f', 1)\nredis.call(ARGV[1], KEYS[2], '0')\nreturn redis.call('pexpire', KEYS[1], 5)",
);

/** An executor whose every script call fails with `reply`. */
function refusing(reply: string): Executor {
  const fail = () => Promise.reject(new Error(reply));
  return {
    isCluster: false,
    evalsha: fail,
    eval: fail,
    command: fail,
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
}

async function refusal(reply: string): Promise<PermissionDeniedError> {
  const error: unknown = await new ScriptRunner(refusing(reply), 1_000)
    .run(script, ['locks:a', 'redisson_lock__channel:{locks:a}'], ['publish'])
    .catch((e: unknown) => e);
  if (!(error instanceof PermissionDeniedError))
    throw new Error(`expected a PermissionDeniedError, got ${String(error)}`);
  return error;
}

describe('PermissionDeniedError from a script call', () => {
  it('names the refused command', async () => {
    const error = await refusal(REPLIES.evalsha);
    expect(error).toBeInstanceOf(LockError);
    expect(error.missing).toBe('command');
    expect(error.message).toContain("run the command 'evalsha'");
    expect(error.lockName).toBe('locks:a');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('names the keys of a call refused for its keys', async () => {
    for (const reply of [REPLIES.keys, REPLIES.scriptKey]) {
      const error = await refusal(reply);
      expect(error.missing).toBe('key');
      expect(error.message).toContain('locks:a, redisson_lock__channel:{locks:a}');
    }
  });

  it('says a channel was refused', async () => {
    for (const reply of [REPLIES.channels, REPLIES.scriptChannel])
      expect((await refusal(reply)).missing).toBe('channel');
  });

  it('lists the commands a script calls when Redis does not say which it refused', async () => {
    const error = await refusal(REPLIES.scriptCommand);
    expect(error.missing).toBe('command');
    expect(error.message).toContain('hincrby, pexpire, publish or spublish');
  });

  it.each(Object.entries(REPLIES_8))('knows Redis 8 and Valkey 8 for %s', async (what, reply) => {
    const error = await refusal(reply);
    expect(error.missing).toBe(
      { keys: 'key', scriptKey: 'key', channels: 'channel', scriptChannel: 'channel' }[what] ?? 'command',
    );
    if (what === 'scriptCommand') expect(error.message).toContain("run the command 'publish'");
  });

  it('leaves other errors alone', () => {
    expect(
      permissionDenied(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'), {
        operation: 'x',
      }),
    ).toBeUndefined();
    expect(permissionDenied(new Error('connect ECONNREFUSED'), { operation: 'x' })).toBeUndefined();
  });

  it('finds the commands a script calls by name', () => {
    expect(commandsCalledBy('redis.call(\'PTTL\', KEYS[1]); redis.pcall("del", KEYS[1])')).toEqual(['del', 'pttl']);
  });
});

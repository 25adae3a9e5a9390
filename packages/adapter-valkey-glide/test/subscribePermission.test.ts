import { describe, expect, it } from 'vitest';
import { decodeSubscribePermission, subscribePermissionCall, subscribeRefusal } from '../src/subscribePermission.js';

describe('subscribe-permission.lua as a call', () => {
  it('asks about the subscribe command and the publish command of the channel kind', () => {
    const classic = subscribePermissionCall({ channel: 'redisson_lock__channel:{a}', sharded: false });
    expect(classic[0]).toBe('EVAL');
    expect(classic[1]).toContain('redis.acl_check_cmd');
    expect(classic.slice(2)).toEqual(['0', 'subscribe', 'redisson_lock__channel:{a}', 'publish']);
    expect(subscribePermissionCall({ channel: 'c', sharded: true }).slice(2)).toEqual([
      '0',
      'ssubscribe',
      'c',
      'spublish',
    ]);
  });

  it('decodes the three replies and rejects any other', () => {
    expect(decodeSubscribePermission('allowed')).toBe('allowed');
    expect(decodeSubscribePermission('command')).toBe('command');
    expect(decodeSubscribePermission('channel')).toBe('channel');
    expect(() => decodeSubscribePermission('denied')).toThrow(/replied denied/);
    expect(() => decodeSubscribePermission(1)).toThrow(/replied 1/);
  });

  it('words a refusal as Redis 7 does, the reply core reads what is missing from', () => {
    expect(subscribeRefusal('allowed', false)).toBeUndefined();
    expect(subscribeRefusal('channel', true)?.message).toBe(
      'NOPERM this user has no permissions to access one of the channels used as arguments',
    );
    expect(subscribeRefusal('command', false)?.message).toBe(
      "NOPERM this user has no permissions to run the 'subscribe' command",
    );
    expect(subscribeRefusal('command', true)?.message).toBe(
      "NOPERM this user has no permissions to run the 'ssubscribe' command",
    );
  });
});

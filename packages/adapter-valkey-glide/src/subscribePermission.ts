import { defineScript } from '@deadbolt/core/kit';
import subscribePermission from './lua/subscribe-permission.lua';

/** A channel to subscribe, classic or sharded. */
export interface SubscribeInput {
  readonly channel: string;
  readonly sharded: boolean;
}

/** What the ACL user may do with a channel: subscribe, or not for want of the command or of the channel. */
export type SubscribePermission = 'allowed' | 'command' | 'channel';

const PERMISSIONS: readonly SubscribePermission[] = ['allowed', 'command', 'channel'];

const script = defineScript('adapter-valkey-glide/subscribe-permission', subscribePermission);

/**
 * The call that asks the server whether the connection's ACL user may subscribe to a channel
 * (`subscribe-permission.lua`, over Redis 7's `redis.acl_check_cmd`), as a whole `EVAL` command:
 * it runs a few times in a client's life, when a subscription goes unconfirmed, so it is not cached.
 */
export function subscribePermissionCall({ channel, sharded }: SubscribeInput): string[] {
  return ['EVAL', script.source, '0', sharded ? 'ssubscribe' : 'subscribe', channel, sharded ? 'spublish' : 'publish'];
}

/** The script's reply as a {@link SubscribePermission}. */
export function decodeSubscribePermission(reply: unknown): SubscribePermission {
  const permission = PERMISSIONS.find((known) => known === reply);
  if (permission === undefined) throw new Error(`subscribe-permission.lua replied ${String(reply)}`);
  return permission;
}

/**
 * The error the server sent GLIDE for a refused subscription, worded as Redis words it
 * (`NOPERM ...`) so that core names what is missing; `undefined` when the user may subscribe.
 */
export function subscribeRefusal(permission: SubscribePermission, sharded: boolean): Error | undefined {
  if (permission === 'allowed') return undefined;
  if (permission === 'command')
    return new Error(
      `NOPERM this user has no permissions to run the '${sharded ? 'ssubscribe' : 'subscribe'}' command`,
    );
  return new Error('NOPERM this user has no permissions to access one of the channels used as arguments');
}

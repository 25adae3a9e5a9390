// What the interop tests of both semaphores share: the messages published on a semaphore's
// channel, as a subscriber connection of the adapter under test receives them.
import { publishCommandOf, type BackendContext } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';

/** Whether `client`'s channels use sharded pub/sub: then Redisson's scripts publish with SPUBLISH too. */
export async function sharded(client: LockClient): Promise<boolean> {
  return (await publishCommandOf(client)) === 'spublish';
}

/** The messages on `channel` from now on, in the order they come. */
export async function listen(ctx: BackendContext, channel: string, isSharded: boolean): Promise<string[]> {
  const messages: string[] = [];
  const executor = await ctx.backend().createExecutor();
  executor.listen({
    onMessage: (from, message) => from === channel && messages.push(message),
    onSubscriberReconnect: () => undefined,
  });
  await executor.subscribe(channel, isSharded);
  return messages;
}

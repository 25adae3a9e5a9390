import type { LockClient } from '@deadbolt/core';
import { call, defineCommand, defineScript, lockRuntime, type PublishCommand } from '@deadbolt/core/kit';

// Replies with its one argument: the client fills it in with the publish command of its scripts.
const ECHO = defineScript('conformance/echo', '-- ARGV[1]: any value\n-- Reply: ARGV[1]\nreturn ARGV[1]\n');

const publishCommand = defineCommand<null, PublishCommand>({
  script: ECHO,
  keys: () => [],
  args: (_input, context) => [context.publish],
  decode: (reply) => reply as PublishCommand,
});

/**
 * The command `client`'s scripts publish with (`spublish` when its lock channels use sharded
 * pub/sub), learned as a lock kind's script learns it: from the context of a command it runs.
 */
export function publishCommandOf(client: LockClient): Promise<PublishCommand> {
  return lockRuntime(client).run(call(publishCommand, null));
}

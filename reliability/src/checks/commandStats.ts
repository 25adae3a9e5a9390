import { parseInfo, type RedisNode } from '@deadbolt/test-harness';

/**
 * How many times the server ran each command (INFO commandstats), leaving out INFO itself. Two
 * equal readings around some calls prove those calls sent nothing to this server.
 */
export async function commandCalls(node: RedisNode): Promise<Record<string, number>> {
  const stats = parseInfo(await node.command('INFO', 'commandstats'));
  const calls: Record<string, number> = {};
  for (const [key, value] of stats) {
    const command = key.replace(/^cmdstat_/, '');
    if (command !== key && command !== 'info') calls[command] = Number(/calls=(\d+)/.exec(value)?.[1] ?? NaN);
  }
  return calls;
}

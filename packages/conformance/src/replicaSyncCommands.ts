import { parseInfo } from '@deadbolt/test-harness';
import { callsOn } from './publishes.js';
import type { BackendContext } from './SuiteContext.js';

/** A command replica sync may send, as INFO commandstats names it. */
export type SyncCommandName = 'wait' | 'waitaof';

/** The command replica sync should send to a server with AOF on, and the one it should not. */
export interface SyncCommandsWithAof {
  readonly used: SyncCommandName;
  readonly unused: SyncCommandName;
}

/**
 * What replica sync should send to the master that owns `name` once AOF is on there: `WAITAOF`
 * from Redis 7.2 (Valkey reports 7.2.4), `WAIT` before. Read from the server's version, not
 * from the client's own choice.
 */
export async function syncCommandsWithAof(ctx: BackendContext, name: string): Promise<SyncCommandsWithAof> {
  const info = parseInfo(String(await ctx.backend().command(['INFO', 'server'], name)));
  const [major = 0, minor = 0] = (info.get('redis_version') ?? '').split('.').map(Number);
  return major > 7 || (major === 7 && minor >= 2)
    ? { used: 'waitaof', unused: 'wait' }
    : { used: 'wait', unused: 'waitaof' };
}

/** How many times the master that owns `name` has run `command`: read before and after a sync. */
export function syncCalls(ctx: BackendContext, name: string, command: SyncCommandName): Promise<number> {
  return callsOn(ctx, name, new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'gm'));
}

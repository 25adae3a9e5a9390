import type { BackendContext } from './SuiteContext.js';

/**
 * How many publishes (classic and sharded) the server that owns `name` has run, scripts' included:
 * a test reads it before and after a release to learn whether that release woke anyone.
 */
export async function publishes(ctx: BackendContext, name: string): Promise<number> {
  const stats = String(await ctx.backend().command(['INFO', 'commandstats'], name));
  let calls = 0;
  for (const match of stats.matchAll(/^cmdstat_s?publish:calls=(\d+)/gm)) calls += Number(match[1]);
  return calls;
}

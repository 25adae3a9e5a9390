import type { BackendContext } from './SuiteContext.js';

/**
 * How many times the server that owns `name` has run the commands `counted` (a global, multiline
 * pattern over INFO commandstats, capturing the calls) names, scripts' included.
 */
export async function callsOn(ctx: BackendContext, name: string, counted: RegExp): Promise<number> {
  const stats = String(await ctx.backend().command(['INFO', 'commandstats'], name));
  let calls = 0;
  for (const match of stats.matchAll(counted)) calls += Number(match[1]);
  return calls;
}

/**
 * How many publishes (classic and sharded) the server that owns `name` has run, scripts' included:
 * a test reads it before and after a release to learn whether that release woke anyone.
 */
export function publishes(ctx: BackendContext, name: string): Promise<number> {
  return callsOn(ctx, name, /^cmdstat_s?publish:calls=(\d+)/gm);
}

/**
 * How many scripts (EVAL and EVALSHA) the server that owns `name` has run: a test reads it before
 * and after a wait to learn how many attempts the waiter made.
 */
export function scriptCalls(ctx: BackendContext, name: string): Promise<number> {
  return callsOn(ctx, name, /^cmdstat_eval(?:sha)?:calls=(\d+)/gm);
}

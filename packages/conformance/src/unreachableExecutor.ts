import type { Executor } from '@deadbolt/core';

/** An {@link Executor} that fails every call to Redis, and counts them. See {@link unreachableExecutor}. */
export interface UnreachableExecutor extends Executor {
  /** The Redis calls attempted so far (evalsha, eval, command, subscribe, unsubscribe), in order. */
  readonly attempted: readonly string[];
}

/**
 * An executor that reaches no Redis: every call rejects and is counted. For tests that bad input
 * is refused before anything is sent: build locks on a client over it, pass bad input, and check
 * that {@link UnreachableExecutor.attempted} stayed empty.
 */
export function unreachableExecutor(): UnreachableExecutor {
  const attempted: string[] = [];
  const refuse = (call: string) => () => {
    attempted.push(call);
    return Promise.reject(new Error('nothing may reach Redis'));
  };
  return {
    attempted,
    isCluster: false,
    evalsha: refuse('evalsha'),
    eval: refuse('eval'),
    command: refuse('command'),
    subscribe: refuse('subscribe'),
    unsubscribe: refuse('unsubscribe'),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
}

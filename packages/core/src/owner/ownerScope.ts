import { AsyncLocalStorage } from 'node:async_hooks';

// The owner of the innermost `withLock` callback running in this async context.
const scope = new AsyncLocalStorage<string>();

/** The owner id of the enclosing `withLock` scope, if any. */
export function currentOwner(): string | undefined {
  return scope.getStore();
}

/**
 * Runs `fn` with `owner` as the scope owner, so every acquisition inside it that names no owner
 * re-enters as that owner.
 */
export function runAsOwner<T>(owner: string, fn: () => T): T {
  return scope.run(owner, fn);
}

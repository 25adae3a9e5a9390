import { AsyncLocalStorage } from 'node:async_hooks';

// The owners of the enclosing `withLock` callbacks in this async context, by lock name.
const scope = new AsyncLocalStorage<ReadonlyMap<string, string>>();

/**
 * The owner id of the enclosing `withLock` scope of the lock named `name`, if any. Scopes are
 * per lock: inside `a.withLock(...)`, acquisitions of another lock `b` still get owners of their
 * own, so concurrent tasks there exclude each other on `b`.
 */
export function currentOwner(name: string): string | undefined {
  return scope.getStore()?.get(name);
}

/**
 * Runs `fn` with `owner` as the scope owner of the lock named `name`, so every acquisition of that
 * lock inside it that names no owner re-enters as that owner.
 */
export function runAsOwner<T>(name: string, owner: string, fn: () => T): T {
  return scope.run(new Map(scope.getStore()).set(name, owner), fn);
}

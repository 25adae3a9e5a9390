import { InvalidArgumentError } from '../errors/LockError.js';

/**
 * Owner ids the library generates start with this character; owner names a user gives may not,
 * so a made-up name can never join a generated owner's holds (the owner model's rule 4).
 */
export const GENERATED_OWNER_PREFIX = '#';

interface OwnerRegistry {
  next: number;
  /** How many live uses (holds, group acquisitions in progress) each generated owner has. */
  readonly live: Map<string, number>;
}

// One registry per process, shared by every copy of core that loads (ESM and CJS alike), so a
// generated id is unique in the process and a MultiLock's owner is valid on every member's client.
const REGISTRY_KEY = Symbol.for('@deadbolt/core/generated-owners');
const registry: OwnerRegistry = ((globalThis as Record<symbol, OwnerRegistry | undefined>)[REGISTRY_KEY] ??= {
  next: 0,
  live: new Map(),
});

/** A fresh generated owner id, `#<n>`, unique in this process. */
export function newGeneratedOwner(): string {
  return `${GENERATED_OWNER_PREFIX}${++registry.next}`;
}

/** Whether `owner` is in the generated namespace. */
export function isGeneratedOwner(owner: string): boolean {
  return owner.startsWith(GENERATED_OWNER_PREFIX);
}

/** Counts one more live use of a generated owner; a named owner is not counted. */
export function retainOwner(owner: string): void {
  if (isGeneratedOwner(owner)) registry.live.set(owner, (registry.live.get(owner) ?? 0) + 1);
}

/** Ends one live use counted by {@link retainOwner}. */
export function releaseOwner(owner: string): void {
  const uses = registry.live.get(owner);
  if (uses === undefined) return;
  if (uses > 1) registry.live.set(owner, uses - 1);
  else registry.live.delete(owner);
}

/**
 * A generated owner kept valid as an `owner` option while something is acquired for it (a lock
 * group hands its owner to every member). For lock group authors; dispose of it once the holds
 * (which keep the owner valid themselves) exist or the acquisition failed.
 */
export interface ReservedOwner extends Disposable {
  /** The generated owner id. */
  readonly owner: string;
}

/** Generates an owner id and keeps it valid as an `owner` option until disposed. */
export function reserveOwner(): ReservedOwner {
  const owner = newGeneratedOwner();
  retainOwner(owner);
  let disposed = false;
  return {
    owner,
    [Symbol.dispose]() {
      if (disposed) return;
      disposed = true;
      releaseOwner(owner);
    },
  };
}

/**
 * Refuses an `owner` option in the generated namespace unless that generated owner is in use
 * now: passing a held lock's `owner` back re-enters it on purpose; a generated-looking id that
 * holds nothing is a mistake, and would otherwise start a hold nobody else can name.
 */
export function checkOwnerInUse(owner: string, argument: string): string {
  if (isGeneratedOwner(owner) && !registry.live.has(owner)) {
    throw new InvalidArgumentError(
      argument,
      `"${owner}" is a generated owner id that holds nothing now; ids starting with "${GENERATED_OWNER_PREFIX}" are Deadbolt's: pass a held lock's owner while it is held, or name an owner of your own`,
    );
  }
  return owner;
}

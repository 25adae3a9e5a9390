/** The name of a role: `lock` for a kind with one role, `read` or `write` for a read-write lock. */
export type RoleName = 'lock' | 'read' | 'write';

/**
 * How a kind is taken: a plain lock has one role; a read-write lock has a shared `read` role and
 * an exclusive `write` role on the same name.
 */
export interface LockRole {
  readonly name: RoleName;
  /** Whether a hold keeps every other owner out; holds of shared roles may overlap each other. */
  readonly exclusive: boolean;
}

/** A kind as its roles are read: a registry kind, or a consumer's view of one. */
export interface KindWithRoles {
  /** The class a user builds, unique among the kinds: `Lock`, `FairLock`, ..., `RedLock`. */
  readonly id: string;
  /** Its roles; at least one is exclusive. */
  readonly roles: readonly LockRole[];
}

/** The roles of a kind with one: `lock`, exclusive. */
export const LOCK_ROLES: readonly LockRole[] = [{ name: 'lock', exclusive: true }];

/** The role of `kind` that keeps everyone else out: what a waiter takes to test a holder of any role. */
export function exclusiveRole(kind: KindWithRoles): LockRole {
  const role = kind.roles.find((entry) => entry.exclusive);
  if (role === undefined) throw new Error(`lock kind ${kind.id} has no exclusive role`);
  return role;
}

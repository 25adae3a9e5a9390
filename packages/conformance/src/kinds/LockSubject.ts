import type { KindWithRoles, LockRole, RoleName } from './LockRole.js';

/** A kind in one role: what one holder in a test takes. */
export interface LockSubject<Kind extends KindWithRoles> {
  readonly kind: Kind;
  readonly role: LockRole;
  /** The kind's id, and for a kind with several roles the role's: `Lock`, `ReadWriteLock.read`, ... */
  readonly label: string;
}

/** Every kind of `kinds` in every role. */
export function subjectsOf<Kind extends KindWithRoles>(kinds: readonly Kind[]): LockSubject<Kind>[] {
  return kinds.flatMap((kind) =>
    kind.roles.map((role) => ({ kind, role, label: kind.roles.length === 1 ? kind.id : `${kind.id}.${role.name}` })),
  );
}

/**
 * `kind` in the role named `role` (its only role by default).
 *
 * @throws Error for a role the kind does not have
 */
export function subjectOf<Kind extends KindWithRoles>(kind: Kind, role: RoleName = 'lock'): LockSubject<Kind> {
  const subject = subjectsOf([kind]).find((candidate) => candidate.role.name === role);
  if (subject === undefined) throw new Error(`lock kind ${kind.id} has no role ${role}`);
  return subject;
}

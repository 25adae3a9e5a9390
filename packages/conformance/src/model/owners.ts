import type { OwnerIdentity } from './HoldRecord.js';
import type { LockModel } from './LockModel.js';
import type { OwnerChoice } from './steps.js';

/** The enclosing `withLock` callback of the run's lock, as the library's scope sees it. */
export interface ScopeEntry {
  readonly client: number;
  readonly identity: OwnerIdentity;
}

/**
 * What an owner choice means for one call: the client it runs on, the `owner` option to pass,
 * and whom the model expects to acquire as:
 * - `fresh`: a new generated owner;
 * - `known`: that identity (a named owner, the scope's owner, a held lock's owner passed back);
 * - `refuse`: the option must be refused with `InvalidArgumentError` before anything reaches Redis.
 */
export type OwnerPlan =
  | { readonly kind: 'fresh'; readonly client: number; readonly option: undefined }
  | {
      readonly kind: 'known';
      readonly client: number;
      readonly option: string | undefined;
      readonly identity: OwnerIdentity;
    }
  | { readonly kind: 'refuse'; readonly client: number; readonly option: string; readonly why: string };

/**
 * Resolves an owner choice made on `client` inside `scope` (innermost last). Inside a `withLock`
 * scope, naming no owner means the scope's owner, on the scope's client (the guide's rule: same
 * name, same client). Passing back a held lock's owner is done on that hold's client; a generated
 * id passed back while no hold with it stands, and a forged `#<n>`, must be refused.
 */
export function planOwner(
  choice: OwnerChoice,
  client: number,
  scope: readonly ScopeEntry[],
  model: LockModel,
): OwnerPlan {
  const inner = scope[scope.length - 1];
  switch (choice.kind) {
    case 'none':
      return inner
        ? { kind: 'known', client: inner.client, option: undefined, identity: inner.identity }
        : { kind: 'fresh', client, option: undefined };
    case 'named':
      return { kind: 'known', client, option: choice.name, identity: { client, owner: choice.name, generated: false } };
    case 'forged':
      return { kind: 'refuse', client, option: `#${choice.n}`, why: `'#${choice.n}' is a made-up generated id` };
    case 'reuse': {
      const hold = model.hold(choice.hold);
      if (!hold) return planOwner({ kind: 'none' }, client, scope, model);
      const { identity } = hold;
      const option = hold.held.owner;
      if (identity.generated && option.startsWith('#') && !model.ownerInUse(option)) {
        return {
          kind: 'refuse',
          client: identity.client,
          option,
          why: `generated id '${option}' is passed back after all its holds ended`,
        };
      }
      return { kind: 'known', client: identity.client, option, identity };
    }
  }
}

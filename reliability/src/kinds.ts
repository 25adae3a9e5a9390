// The lock kinds as the reliability suite runs them: the kinds of the registry
// (`@deadbolt/conformance/kinds`), with fair locks built with a short waiter timeout, on the
// topologies and over the deployments this suite gives each. Every test (fault files, hammer, bad
// input) runs over the single locks (KINDS); the hammer and the bad-input table also run over the
// lock groups (GROUP_KINDS), whose holds offer no queries. Child processes import this module too
// and look a kind up by id.
import type { TopologyName } from '@deadbolt/conformance';
import {
  kindById as registryKindById,
  LOCK_GROUP_KINDS,
  SHORT_WAITER_TIMEOUT,
  SINGLE_LOCK_KINDS,
  subjectsOf,
  type AcquirableLock,
  type ConformantLock,
  type RegisteredKind,
  type LockSubject,
  type RoleName,
} from '@deadbolt/conformance/kinds';
import type { LockClient } from '@deadbolt/core';

/** A kind of the registry as the suite runs it, building locks of type `Built`. */
export interface HammerKind<Built extends AcquirableLock = AcquirableLock> extends Pick<
  RegisteredKind<Built>,
  'id' | 'roles' | 'token'
> {
  /** The topologies it runs on. */
  readonly topologies: readonly TopologyName[];
  /** The independent deployments (servers) it spans. */
  readonly deployments: number;
  /**
   * The lock of `role` named `name`, fair locks with a short waiter timeout (a waiter process the
   * suite kills holds a queue up for a second). `clients` holds one client per deployment.
   */
  create(clients: readonly LockClient[], name: string, role: RoleName): Built;
}

/**
 * A single-lock kind: its locks answer queries too (`isLocked`, `holdCount`, `remainingTtl`, ...),
 * which the fault tests other than the hammer read.
 */
export type ReliabilityKind = HammerKind<ConformantLock>;

/** The independent deployments a RedLock hammer spans: a quorum of 2 survives one node lost. */
export const REDLOCK_DEPLOYMENTS = 3;

const BOTH_TOPOLOGIES: readonly TopologyName[] = ['standalone', 'cluster'];

function forReliability<Built extends AcquirableLock>(kind: RegisteredKind<Built>): HammerKind<Built> {
  return {
    id: kind.id,
    roles: kind.roles,
    // A kind over independent deployments runs over independent standalone servers.
    topologies: kind.spansDeployments ? ['standalone'] : BOTH_TOPOLOGIES,
    deployments: kind.spansDeployments ? REDLOCK_DEPLOYMENTS : 1,
    create: (clients, name, role) => kind.create(clients, name, role, SHORT_WAITER_TIMEOUT),
    ...(kind.token === undefined ? {} : { token: kind.token }),
  };
}

/** Every single-lock kind the suite checks. */
export const KINDS: readonly ReliabilityKind[] = SINGLE_LOCK_KINDS.map(forReliability);

/** The lock groups: only the hammer and the bad-input table run them. */
export const GROUP_KINDS: readonly HammerKind[] = LOCK_GROUP_KINDS.map(forReliability);

/** The kind whose id is `id`, single lock or group; throws for an unknown one. */
export function kindById(id: string): HammerKind {
  return forReliability(registryKindById(id));
}

/** Every single-lock kind in every role, for the kinds that run on `topology`. */
export function subjectsOn(topology: TopologyName): LockSubject<ReliabilityKind>[] {
  return subjectsOf(KINDS).filter(({ kind }) => kind.topologies.includes(topology));
}

/** Every lock group in every role, for the groups that run on `topology`. */
export function groupSubjectsOn(topology: TopologyName): LockSubject<HammerKind>[] {
  return subjectsOf(GROUP_KINDS).filter(({ kind }) => kind.topologies.includes(topology));
}

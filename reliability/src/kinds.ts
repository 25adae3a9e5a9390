// The table of lock kinds the suite checks. Every test (fault files, hammer, bad input) runs over
// this table, so a new kind is one entry here. Child processes import this module too and look a
// kind up by name, which is why it imports the built packages only.
import type { ConformantLock, TopologyName } from '@deadbolt/conformance';
import type { HeldLock, LockClient } from '@deadbolt/core';
import { FairLock, type FairLockOptions } from '@deadbolt/fair-lock';
import { FencedHeldLock, FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { BAD_DURATIONS, BAD_OPTIONS_OBJECTS, INFINITE } from './badInput/badValues.js';

/**
 * How a kind is taken: a plain lock has one role; a read-write lock has a shared `read` role and
 * an exclusive `write` role on the same name.
 */
export interface LockRole {
  readonly name: string;
  /** Whether a hold keeps every other owner out; holds of shared roles may overlap each other. */
  readonly exclusive: boolean;
}

/** One lock kind under test. */
export interface ReliabilityKind {
  readonly name: string;
  /** Its roles; at least one is exclusive. */
  readonly roles: readonly LockRole[];
  /** The topologies it runs on. */
  readonly topologies: readonly TopologyName[];
  /**
   * The lock of `role` named `name`. `clients` holds one client per independent deployment the
   * kind spans (one for every kind but RedLock).
   */
  create(clients: readonly LockClient[], name: string, role: string): ConformantLock;
  /**
   * The fencing token of a hold, for kinds that issue one. The suite then checks that a holder
   * whose lease ran out has its writes rejected by a fenced store (see `FencedStore`).
   */
  token?(held: HeldLock): bigint;
  /**
   * Bad inputs only this kind refuses, beyond those the bad-input test tries on every kind: its
   * own constructor options, say. Each must throw `InvalidArgumentError` naming `argument`
   * before anything reaches Redis.
   */
  badInputs?(client: LockClient): readonly KindBadInput[];
}

/** A bad input of one lock kind (see {@link ReliabilityKind.badInputs}). */
export interface KindBadInput {
  readonly input: string;
  readonly argument: string;
  call(): unknown;
}

/** A kind in one role: what a single holder in a test takes. */
export interface LockSubject {
  readonly kind: ReliabilityKind;
  readonly role: LockRole;
  /** `Lock`, `FairLock`, `ReadWriteLock.read`, ... */
  readonly label: string;
}

/**
 * How long a fair-lock waiter may go unseen before the waiters behind it skip it: short, so a
 * waiter process the suite kills holds the queue up for a second, not Redisson's five minutes.
 */
export const FAIR_WAITER_TIMEOUT = 1_000;

const EXCLUSIVE: readonly LockRole[] = [{ name: 'lock', exclusive: true }];
const BOTH_TOPOLOGIES: readonly TopologyName[] = ['standalone', 'cluster'];

function badInput(input: string, argument: string, call: () => unknown): KindBadInput {
  return { input, argument, call };
}

function only(clients: readonly LockClient[]): LockClient {
  const [client] = clients;
  if (client === undefined || clients.length !== 1) throw new Error(`expected one lock client, got ${clients.length}`);
  return client;
}

/** Every lock kind the suite checks. */
export const KINDS: readonly ReliabilityKind[] = [
  {
    name: 'Lock',
    roles: EXCLUSIVE,
    topologies: BOTH_TOPOLOGIES,
    create: (clients, name) => only(clients).lock(name),
  },
  {
    name: 'FairLock',
    roles: EXCLUSIVE,
    topologies: BOTH_TOPOLOGIES,
    create: (clients, name) => new FairLock(only(clients), name, { waiterTimeout: FAIR_WAITER_TIMEOUT }),
    badInputs: (client) => [
      ...BAD_OPTIONS_OBJECTS.map(({ label, value }) => badInput(`options = ${label}`, 'options', () => new FairLock(client, 'x', value as FairLockOptions))),
      badInput('an unknown option', 'options.waitertimeout', () => new FairLock(client, 'x', { waitertimeout: 5 } as FairLockOptions)),
      ...[...BAD_DURATIONS, INFINITE, { label: '0', value: 0 }].map(({ label, value }) =>
        badInput(`options.waiterTimeout = ${label}`, 'options.waiterTimeout', () => new FairLock(client, 'x', { waiterTimeout: value as number })),
      ),
    ],
  },
  {
    name: 'FencedLock',
    roles: EXCLUSIVE,
    topologies: BOTH_TOPOLOGIES,
    create: (clients, name) => new FencedLock(only(clients), name),
    token: (held) => {
      if (!(held instanceof FencedHeldLock)) throw new Error(`a FencedLock hold carries a token; got ${held.constructor.name}`);
      return held.token;
    },
  },
  {
    name: 'ReadWriteLock',
    roles: [
      { name: 'read', exclusive: false },
      { name: 'write', exclusive: true },
    ],
    topologies: BOTH_TOPOLOGIES,
    create: (clients, name, role) => {
      const lock = new ReadWriteLock(only(clients), name);
      return role === 'read' ? lock.readLock() : lock.writeLock();
    },
    // Redisson's layout reserves the `:write` suffix for the writer's field.
    badInputs: (client) =>
      (['read', 'write'] as const).flatMap((role) => {
        const half = () => new ReadWriteLock(client, 'x')[role === 'read' ? 'readLock' : 'writeLock']();
        return [
          badInput(`${role} lock: acquire with options.owner = "job:write"`, 'options.owner', () => half().acquire({ owner: 'job:write' })),
          badInput(`${role} lock: tryAcquire with options.owner = "write"`, 'options.owner', () => half().tryAcquire({ owner: 'write' })),
          badInput(`${role} lock: holdCount("job:write")`, 'owner', () => half().holdCount('job:write')),
        ];
      }),
  },
];

/** The kind named `name`; throws for an unknown one. */
export function kindNamed(name: string): ReliabilityKind {
  const kind = KINDS.find((entry) => entry.name === name);
  if (kind === undefined) throw new Error(`no lock kind named ${name}`);
  return kind;
}

/** Every kind in every role, for the kinds that run on `topology`. */
export function subjectsOn(topology: TopologyName): LockSubject[] {
  return KINDS.filter((kind) => kind.topologies.includes(topology)).flatMap((kind) =>
    kind.roles.map((role) => ({ kind, role, label: kind.roles.length === 1 ? kind.name : `${kind.name}.${role.name}` })),
  );
}

/** The role of `kind` that keeps everyone else out: what a waiter takes to test a holder of any role. */
export function exclusiveRole(kind: ReliabilityKind): LockRole {
  const role = kind.roles.find((entry) => entry.exclusive);
  if (role === undefined) throw new Error(`lock kind ${kind.name} has no exclusive role`);
  return role;
}

// The tables of lock kinds the suite checks. Every test (fault files, hammer, bad input) runs over
// the single locks (KINDS); the hammer and the bad-input table also run over the lock groups
// (GROUP_KINDS), whose holds offer no queries. A new kind is one entry here. Child processes import this module too and look a
// kind up by name, which is why it imports the built packages only.
import type { ConformantLock, TopologyName } from '@deadbolt/conformance';
import type { AcquireOptions, LockClient } from '@deadbolt/core';
import { FairLock, type FairLockOptions } from '@deadbolt/fair-lock';
import { FencedHeldLock, FencedLock } from '@deadbolt/fenced-lock';
import { MultiLock } from '@deadbolt/multilock';
import { RedLock, type RedLockOptions } from '@deadbolt/redlock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { BAD_DURATIONS, BAD_OPTIONS_OBJECTS, INFINITE, WRONG_TYPES } from './badInput/badValues.js';

/** A hold as the hammer needs it: a lock's `HeldLock` or a group's `HeldLockGroup` / `HeldRedLock`. */
export interface HammeredHold {
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

/**
 * What the hammer takes and releases: a single lock or a group of locks. Queries (`isLocked`,
 * `holdCount`, ...) are no part of it: only the single-lock kinds offer them (see {@link ReliabilityKind}).
 */
export interface HammeredLock {
  acquire(options?: AcquireOptions): Promise<HammeredHold>;
  tryAcquire(options?: AcquireOptions): Promise<HammeredHold | null>;
  withLock<T>(fn: (signal: AbortSignal) => T | Promise<T>, options?: AcquireOptions): Promise<T>;
}

/**
 * How a kind is taken: a plain lock has one role; a read-write lock has a shared `read` role and
 * an exclusive `write` role on the same name.
 */
export interface LockRole {
  readonly name: string;
  /** Whether a hold keeps every other owner out; holds of shared roles may overlap each other. */
  readonly exclusive: boolean;
}

/** One lock kind under test, building locks of type `Built`. */
export interface HammerKind<Built extends HammeredLock = HammeredLock> {
  readonly name: string;
  /** Its roles; at least one is exclusive. */
  readonly roles: readonly LockRole[];
  /** The topologies it runs on. */
  readonly topologies: readonly TopologyName[];
  /** The independent deployments (servers or clusters) it spans: 1 unless given. */
  readonly deployments?: number;
  /**
   * The lock of `role` named `name`. `clients` holds one client per independent deployment the
   * kind spans (one for every kind but RedLock).
   */
  create(clients: readonly LockClient[], name: string, role: string): Built;
  /**
   * The fencing token of a hold, for kinds that issue one. The suite then checks that a holder
   * whose lease ran out has its writes rejected by a fenced store (see `FencedStore`).
   */
  token?(held: HammeredHold): bigint;
  /**
   * Bad inputs only this kind refuses, beyond those the bad-input test tries on every kind: its
   * own constructor options, say. Each must throw `InvalidArgumentError` naming `argument`
   * before anything reaches Redis.
   */
  badInputs?(clients: DeploymentClients): readonly KindBadInput[];
}

/**
 * A single-lock kind: its locks answer queries too (`isLocked`, `holdCount`, `remainingTtl`, ...),
 * which the fault tests other than the hammer read.
 */
export type ReliabilityKind = HammerKind<ConformantLock>;

/** One open lock client per independent deployment (at least one). */
export type DeploymentClients = readonly [LockClient, ...LockClient[]];

/** A bad input of one lock kind (see {@link ReliabilityKind.badInputs}). */
export interface KindBadInput {
  readonly input: string;
  readonly argument: string;
  call(): unknown;
}

/** A kind in one role: what a single holder in a test takes. */
export interface LockSubject<Kind extends HammerKind = ReliabilityKind> {
  readonly kind: Kind;
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
    badInputs: ([client]) => [
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
    badInputs: ([client]) =>
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

/** The independent deployments a RedLock hammer spans: a quorum of 2 survives one node lost. */
export const REDLOCK_DEPLOYMENTS = 3;

// The bad `locks` arrays every lock group refuses: not an array, empty, with a non-lock entry.
function badLockArrays(client: LockClient, build: (locks: unknown) => unknown): KindBadInput[] {
  return [
    // (An array of a wrong type is a bad entry, below.)
    ...[{ label: 'undefined', value: undefined }, ...WRONG_TYPES.filter(({ label }) => label !== 'an array'), { label: 'an object', value: { 0: client.lock('x') } }].map(({ label, value }) =>
      badInput(`locks = ${label}`, 'locks', () => build(value)),
    ),
    badInput('locks = []', 'locks', () => build([])),
    badInput('locks = [{}]', 'locks[0]', () => build([{}])),
    badInput('locks = [a lock, "b"]', 'locks[1]', () => build([client.lock('a'), 'b'])),
    badInput('locks = [a lock, a client]', 'locks[1]', () => build([client.lock('a'), client])),
  ];
}

/**
 * The lock groups: they hold a group (`HeldLockGroup`, `HeldRedLock`) with no queries of its own,
 * so only the hammer and the bad-input table run them.
 */
export const GROUP_KINDS: readonly HammerKind[] = [
  {
    name: 'MultiLock',
    roles: EXCLUSIVE,
    topologies: BOTH_TOPOLOGIES,
    // Two kinds of member under two names (one hash tag, so one cluster slot).
    create: (clients, name) => {
      const client = only(clients);
      return new MultiLock([client.lock(`${name}:plain`), new FairLock(client, `${name}:fair`, { waiterTimeout: FAIR_WAITER_TIMEOUT })]);
    },
    badInputs: ([client]) => [
      ...badLockArrays(client, (locks) => new MultiLock(locks as MultiLock['locks'])),
      badInput('one lock twice on one client', 'locks', () => new MultiLock([client.lock('a'), client.lock('a')])),
    ],
  },
  {
    name: 'RedLock',
    roles: EXCLUSIVE,
    topologies: ['standalone'],
    deployments: REDLOCK_DEPLOYMENTS,
    create: (clients, name) => new RedLock(clients.map((client) => client.lock(name))),
    badInputs: (clients) => {
      const [client] = clients;
      const members = () => clients.map((each) => each.lock('x'));
      const withOption = (key: string) => (value: unknown) => new RedLock(members(), { [key]: value } as RedLockOptions);
      const durations = (key: string, extra: readonly { label: string; value: unknown }[]) =>
        [...BAD_DURATIONS, INFINITE, ...extra].map(({ label, value }) => badInput(`options.${key} = ${label}`, `options.${key}`, () => withOption(key)(value)));
      return [
        ...badLockArrays(client, (locks) => new RedLock(locks as RedLock['locks'])),
        badInput('two locks of one client', 'locks', () => new RedLock([client.lock('a'), client.lock('b')])),
        ...BAD_OPTIONS_OBJECTS.map(({ label, value }) => badInput(`options = ${label}`, 'options', () => new RedLock(members(), value as RedLockOptions))),
        badInput('an unknown option', 'options.nodetimeout', () => withOption('nodetimeout')(100)),
        ...durations('nodeTimeout', [{ label: '0', value: 0 }]),
        ...durations('retryDelay', []),
        ...durations('retryJitter', []),
        // Its own acquire option: a lease the clock drift allowance leaves no validity in.
        badInput('acquire with options.leaseTime = 2 (no validity left)', 'options.leaseTime', () => new RedLock(members()).acquire({ leaseTime: 2 })),
        badInput('tryAcquire with options.leaseTime = 1 (no validity left)', 'options.leaseTime', () => new RedLock(members()).tryAcquire({ leaseTime: 1 })),
      ];
    },
  },
];

/** The kind named `name`, single lock or group; throws for an unknown one. */
export function kindNamed(name: string): HammerKind {
  const kind = [...KINDS, ...GROUP_KINDS].find((entry) => entry.name === name);
  if (kind === undefined) throw new Error(`no lock kind named ${name}`);
  return kind;
}

/** Every single-lock kind in every role, for the kinds that run on `topology`. */
export function subjectsOn(topology: TopologyName): LockSubject[] {
  return subjectsOf(KINDS, topology);
}

/** Every lock group in every role, for the groups that run on `topology`. */
export function groupSubjectsOn(topology: TopologyName): LockSubject<HammerKind>[] {
  return subjectsOf(GROUP_KINDS, topology);
}

function subjectsOf<Kind extends HammerKind>(kinds: readonly Kind[], topology: TopologyName): LockSubject<Kind>[] {
  return kinds
    .filter((kind) => kind.topologies.includes(topology))
    .flatMap((kind) => kind.roles.map((role) => ({ kind, role, label: kind.roles.length === 1 ? kind.name : `${kind.name}.${role.name}` })));
}

/** The role of `kind` that keeps everyone else out: what a waiter takes to test a holder of any role. */
export function exclusiveRole(kind: HammerKind): LockRole {
  const role = kind.roles.find((entry) => entry.exclusive);
  if (role === undefined) throw new Error(`lock kind ${kind.name} has no exclusive role`);
  return role;
}

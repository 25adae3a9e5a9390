import { ClientClosedError, InvalidArgumentError, LockClient, LockNotHeldError, type Executor } from '@deadbolt/core';
import type { AcquirableLock, LockHold, LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerKind, ReliabilityKind } from '../kinds.js';
import { kindBadInputs, type DeploymentClients } from './kindBadInputs.js';
import {
  BAD_DURATIONS,
  BAD_ACQUIRE_OWNERS,
  BAD_NAMES,
  BAD_OPTIONS_OBJECTS,
  BAD_OWNERS,
  BAD_SIGNALS,
  INFINITE,
  WRONG_TYPES,
  type BadValue,
} from './badValues.js';

/** One bad input to one public entry point, and the typed error it must get. */
export interface BadInputCase {
  readonly input: string;
  /** The error class it must throw (or reject with). */
  readonly error: abstract new (...args: never[]) => Error;
  /** For an `InvalidArgumentError`: the argument it must name. */
  readonly argument?: string;
  readonly call: () => unknown;
}

/** The bad inputs of one public entry point. */
export interface EntryPoint {
  readonly name: string;
  readonly cases: readonly BadInputCase[];
}

/** What the table calls into: live objects, made (and connected) before anything is measured. */
export interface BadInputSubjects {
  /**
   * A new executor that sends nothing until used: one per lock client built, since a lock
   * client refuses an executor another one uses, and a bad option wrongly accepted uses one up.
   */
  newExecutor(): Executor;
  /** Open lock clients, one per independent server, as many as the kind spanning most needs (RedLock). */
  readonly clients: DeploymentClients;
  /** As many lock clients, each closed. */
  readonly closedClients: DeploymentClients;
  /** The single-lock kinds in every role. */
  readonly subjects: readonly LockSubject<ReliabilityKind>[];
  /** The lock groups in every role. */
  readonly groupSubjects: readonly LockSubject<HammerKind>[];
  /** A hold of each subject, then of each group subject, in subject order, already released. */
  readonly releasedHolds: readonly LockHold[];
  /** The adapter's factory, its name, a driver client it accepts, and clients it must refuse. */
  readonly adapter: {
    readonly name: string;
    readonly factory: (client: never, options?: never) => Executor;
    readonly validClient: unknown;
    readonly refusedClients: readonly BadValue[];
  };
}

const refused = (argument: string, input: string, call: () => unknown): BadInputCase => ({
  input,
  error: InvalidArgumentError,
  argument,
  call,
});
const each = (argument: string, values: readonly BadValue[], call: (value: unknown) => unknown): BadInputCase[] =>
  values.map(({ label, value }) => refused(argument, `${argument} = ${label}`, () => call(value)));
const positive = (zero: number): BadValue => ({ label: String(zero), value: zero });

/** Every public entry point with every bad input it must refuse. */
export function badInputTable(on: BadInputSubjects): EntryPoint[] {
  return [
    { name: 'LockClient constructor', cases: clientCases(on) },
    { name: `${on.adapter.name} executor factory`, cases: adapterCases(on) },
    ...on.subjects.flatMap((subject, index) => [
      ...subjectEntries(on, subject, on.releasedHolds[index]),
      ...singleLockEntries(on, subject),
    ]),
    ...on.groupSubjects.flatMap((subject, index) =>
      subjectEntries(on, subject, on.releasedHolds[on.subjects.length + index]),
    ),
    ...uniqueKinds([...on.subjects, ...on.groupSubjects]).flatMap((subject) => {
      const cases = kindBadInputs(subject.kind.id, on.clients);
      return cases.length === 0
        ? []
        : [{ name: `${subject.kind.id} specifics`, cases: cases.map((c) => refused(c.argument, c.input, c.call)) }];
    }),
  ];
}

function clientCases(on: BadInputSubjects): BadInputCase[] {
  const withOption = (key: string) => (value: unknown) => new LockClient(on.newExecutor(), { [key]: value });
  return [
    ...each(
      'executor',
      [{ label: 'undefined', value: undefined }, ...WRONG_TYPES, { label: 'an object', value: {} }],
      (value) => new LockClient(value as Executor),
    ),
    ...each('options', BAD_OPTIONS_OBJECTS, (value) => new LockClient(on.newExecutor(), value as object)),
    refused('options.watchdogtimeout', 'an unknown option', () => withOption('watchdogtimeout')(1_000)),
    ...each('options.watchdogTimeout', [...BAD_DURATIONS, INFINITE, positive(29)], withOption('watchdogTimeout')),
    ...each('options.commandTimeout', [...BAD_DURATIONS, INFINITE, positive(0)], withOption('commandTimeout')),
    ...each('options.pubsub', [{ label: 'an unknown mode', value: 'fast' }, ...WRONG_TYPES], withOption('pubsub')),
    ...each(
      'options.clientId',
      [{ label: 'empty', value: '' }, { label: 'with ":"', value: 'a:b' }, ...WRONG_TYPES],
      withOption('clientId'),
    ),
  ];
}

function adapterCases(on: BadInputSubjects): BadInputCase[] {
  const { factory, validClient, refusedClients } = on.adapter;
  const build = (client: unknown, options?: unknown) => factory(client as never, options as never);
  return [
    ...each(
      'client',
      [{ label: 'undefined', value: undefined }, ...WRONG_TYPES, { label: 'an object', value: {} }, ...refusedClients],
      (value) => build(value),
    ),
    ...each('options', BAD_OPTIONS_OBJECTS, (value) => build(validClient, value)),
    refused('options.subscribername', 'an unknown option', () => build(validClient, { subscribername: 'x' })),
    ...each(
      'options.subscriberName',
      [
        { label: 'empty', value: '' },
        { label: 'with a space', value: 'locks worker' },
        { label: 'not ASCII', value: 'sérrure' },
        { label: 'with a newline', value: 'locks\n' },
        ...WRONG_TYPES,
      ],
      (value) => build(validClient, { subscriberName: value }),
    ),
  ];
}

/** The clients a lock of `kind` is built on: one per deployment it spans. */
export function clientsOf(kind: HammerKind, clients: readonly LockClient[]): LockClient[] {
  return clients.slice(0, kind.deployments);
}

// A lock of its own for every call: one that wrongly took its lock must not hold up the next.
function lockMaker<Built extends AcquirableLock>(
  on: BadInputSubjects,
  subject: LockSubject<HammerKind<Built>>,
): (clients?: readonly LockClient[]) => Built {
  let calls = 0;
  return (clients = on.clients) =>
    subject.kind.create(clientsOf(subject.kind, clients), `bad-input:${subject.label}:${++calls}`, subject.role.name);
}

const afterClose = (input: string, call: () => unknown): BadInputCase => ({ input, error: ClientClosedError, call });

/** The acquisitions of a lock or a lock group, their options, a released hold, and each after close. */
function subjectEntries(
  on: BadInputSubjects,
  subject: LockSubject<HammerKind>,
  released: LockHold | undefined,
): EntryPoint[] {
  const lock = lockMaker(on, subject);
  const methods = {
    acquire: (options: unknown) => lock().acquire(options as object),
    tryAcquire: (options: unknown) => lock().tryAcquire(options as object),
    withLock: (options: unknown) => lock().withLock(() => undefined, options as object),
  };
  const optionCases = Object.entries(methods).flatMap(([method, call]) =>
    [
      ...each('options', BAD_OPTIONS_OBJECTS, call),
      refused('options.leasetime', 'an unknown option', () => call({ leasetime: 100 })),
      ...each('options.leaseTime', [...BAD_DURATIONS, INFINITE, positive(0)], (value) => call({ leaseTime: value })),
      ...each('options.waitTime', BAD_DURATIONS, (value) => call({ waitTime: value })),
      ...each('options.signal', BAD_SIGNALS, (value) => call({ signal: value })),
      ...each('options.owner', BAD_ACQUIRE_OWNERS, (value) => call({ owner: value })),
    ].map((c) => ({ ...c, input: `${method}: ${c.input}` })),
  );
  const closed = lock(on.closedClients);
  return [
    {
      name: `${subject.label} acquisitions`,
      cases: [
        ...optionCases,
        ...each(
          'fn',
          [{ label: 'undefined', value: undefined }, ...WRONG_TYPES.filter(({ label }) => label !== 'a function')],
          (value) => lock().withLock(value as () => void),
        ),
      ],
    },
    {
      name: `${subject.label} after release and after close`,
      cases: [
        { input: 'release a released hold', error: LockNotHeldError, call: () => released?.release() },
        afterClose('acquire', () => closed.acquire()),
        afterClose('tryAcquire', () => closed.tryAcquire()),
        afterClose('withLock', () => closed.withLock(() => undefined)),
      ],
    },
  ];
}

/** What a single lock has beyond a group: a name of its own, and queries. */
function singleLockEntries(on: BadInputSubjects, subject: LockSubject<ReliabilityKind>): EntryPoint[] {
  const lock = lockMaker(on, subject);
  const closed = lock(on.closedClients);
  return [
    {
      name: `${subject.label} constructor`,
      cases: each('name', BAD_NAMES, (value) =>
        subject.kind.create(clientsOf(subject.kind, on.clients), value as string, subject.role.name),
      ),
    },
    {
      name: `${subject.label} queries`,
      cases: [
        ...each('owner', BAD_OWNERS, (value) => lock().holdCount(value as string)).map((c) => ({
          ...c,
          input: `holdCount: ${c.input}`,
        })),
        ...each('owner', BAD_OWNERS, (value) => lock().isHeldBy(value as string)).map((c) => ({
          ...c,
          input: `isHeldBy: ${c.input}`,
        })),
        afterClose('isLocked after close', () => closed.isLocked()),
        afterClose('isHeldBy after close', () => closed.isHeldBy('owner')),
        afterClose('holdCount after close', () => closed.holdCount('owner')),
        afterClose('remainingTtl after close', () => closed.remainingTtl()),
        afterClose('forceUnlock after close', () => closed.forceUnlock()),
      ],
    },
  ];
}

function uniqueKinds(subjects: readonly LockSubject<HammerKind>[]): LockSubject<HammerKind>[] {
  return subjects.filter((subject, index) => subjects.findIndex((other) => other.kind === subject.kind) === index);
}

/**
 * What a call did: the error it threw or rejected with, `undefined` when it succeeded, or an
 * error saying it never answered: an input wrongly taken as a wait of days must not hang the test.
 */
export async function errorOf(call: () => unknown, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Error>((resolve) => {
    timer = setTimeout(() => resolve(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(call)
        .then(() => undefined),
      timedOut,
    ]);
  } catch (error) {
    return error;
  } finally {
    clearTimeout(timer);
  }
}

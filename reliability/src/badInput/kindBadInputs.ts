// The bad inputs only some kinds refuse, beyond those the bad-input table tries on every kind:
// their own constructor options, say. Each must throw `InvalidArgumentError` naming `argument`
// before anything reaches Redis.
import { FAIR_LOCK, MULTI_LOCK, READ_WRITE_LOCK, RED_LOCK } from '@deadbolt/conformance/kinds';
import type { LockClient } from '@deadbolt/core';
import { FairLock, type FairLockOptions } from '@deadbolt/fair-lock';
import { MultiLock } from '@deadbolt/multilock';
import { RedLock, type RedLockOptions } from '@deadbolt/redlock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { BAD_DURATIONS, BAD_OPTIONS_OBJECTS, INFINITE, WRONG_TYPES } from './badValues.js';

/** One open lock client per independent deployment (at least one). */
export type DeploymentClients = readonly [LockClient, ...LockClient[]];

/** A bad input of one lock kind (see {@link kindBadInputs}). */
export interface KindBadInput {
  readonly input: string;
  readonly argument: string;
  readonly call: () => unknown;
}

function badInput(input: string, argument: string, call: () => unknown): KindBadInput {
  return { input, argument, call };
}

// The bad `locks` arrays every lock group refuses: not an array, empty, with a non-lock entry.
function badLockArrays(client: LockClient, build: (locks: unknown) => unknown): KindBadInput[] {
  return [
    // (An array of a wrong type is a bad entry, below.)
    ...[
      { label: 'undefined', value: undefined },
      ...WRONG_TYPES.filter(({ label }) => label !== 'an array'),
      { label: 'an object', value: { 0: client.lock('x') } },
    ].map(({ label, value }) => badInput(`locks = ${label}`, 'locks', () => build(value))),
    badInput('locks = []', 'locks', () => build([])),
    badInput('locks = [{}]', 'locks[0]', () => build([{}])),
    badInput('locks = [a lock, "b"]', 'locks[1]', () => build([client.lock('a'), 'b'])),
    badInput('locks = [a lock, a client]', 'locks[1]', () => build([client.lock('a'), client])),
  ];
}

// The kinds with bad inputs of their own, by kind id.
const BAD_INPUTS_BY_KIND: ReadonlyMap<string, (clients: DeploymentClients) => KindBadInput[]> = new Map<
  string,
  (clients: DeploymentClients) => KindBadInput[]
>([
  [
    FAIR_LOCK.id,
    ([client]) => [
      ...BAD_OPTIONS_OBJECTS.map(({ label, value }) =>
        badInput(`options = ${label}`, 'options', () => new FairLock(client, 'x', value as FairLockOptions)),
      ),
      badInput(
        'an unknown option',
        'options.waitertimeout',
        () => new FairLock(client, 'x', { waitertimeout: 5 } as FairLockOptions),
      ),
      ...[...BAD_DURATIONS, INFINITE, { label: '0', value: 0 }].map(({ label, value }) =>
        badInput(
          `options.waiterTimeout = ${label}`,
          'options.waiterTimeout',
          () => new FairLock(client, 'x', { waiterTimeout: value as number }),
        ),
      ),
    ],
  ],
  [
    READ_WRITE_LOCK.id,
    // Redisson's layout reserves the `:write` suffix for the writer's field.
    ([client]) =>
      (['read', 'write'] as const).flatMap((role) => {
        const half = () => new ReadWriteLock(client, 'x')[role === 'read' ? 'readLock' : 'writeLock']();
        return [
          badInput(`${role} lock: acquire with options.owner = "job:write"`, 'options.owner', () =>
            half().acquire({ owner: 'job:write' }),
          ),
          badInput(`${role} lock: tryAcquire with options.owner = "write"`, 'options.owner', () =>
            half().tryAcquire({ owner: 'write' }),
          ),
          badInput(`${role} lock: holdCount("job:write")`, 'owner', () => half().holdCount('job:write')),
        ];
      }),
  ],
  [
    MULTI_LOCK.id,
    ([client]) => [
      ...badLockArrays(client, (locks) => new MultiLock(locks as MultiLock['locks'])),
      badInput('one lock twice on one client', 'locks', () => new MultiLock([client.lock('a'), client.lock('a')])),
    ],
  ],
  [
    RED_LOCK.id,
    (clients) => {
      const [client] = clients;
      const members = () => clients.map((each) => each.lock('x'));
      const withOption = (key: string) => (value: unknown) => new RedLock(members(), { [key]: value });
      const durations = (key: string, extra: readonly { label: string; value: unknown }[]) =>
        [...BAD_DURATIONS, INFINITE, ...extra].map(({ label, value }) =>
          badInput(`options.${key} = ${label}`, `options.${key}`, () => withOption(key)(value)),
        );
      return [
        ...badLockArrays(client, (locks) => new RedLock(locks as RedLock['locks'])),
        badInput('two locks of one client', 'locks', () => new RedLock([client.lock('a'), client.lock('b')])),
        ...BAD_OPTIONS_OBJECTS.map(({ label, value }) =>
          badInput(`options = ${label}`, 'options', () => new RedLock(members(), value as RedLockOptions)),
        ),
        badInput('an unknown option', 'options.nodetimeout', () => withOption('nodetimeout')(100)),
        ...durations('nodeTimeout', [{ label: '0', value: 0 }]),
        ...durations('retryDelay', []),
        ...durations('retryJitter', []),
        // Its own acquire option: a lease the clock drift allowance leaves no validity in.
        badInput('acquire with options.leaseTime = 2 (no validity left)', 'options.leaseTime', () =>
          new RedLock(members()).acquire({ leaseTime: 2 }),
        ),
        badInput('tryAcquire with options.leaseTime = 1 (no validity left)', 'options.leaseTime', () =>
          new RedLock(members()).tryAcquire({ leaseTime: 1 }),
        ),
      ];
    },
  ],
]);

/** The bad inputs only the kind `kindId` refuses, on `clients` (one per deployment); none for most kinds. */
export function kindBadInputs(kindId: string, clients: DeploymentClients): readonly KindBadInput[] {
  return BAD_INPUTS_BY_KIND.get(kindId)?.(clients) ?? [];
}

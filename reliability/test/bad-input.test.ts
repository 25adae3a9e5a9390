// Bad input, table-driven, on every public entry point of every published package: each gets the
// right typed error (an InvalidArgumentError naming the argument, a LockNotHeldError, a
// ClientClosedError) and Redis sees nothing of it. Legal names that look odd (unicode, hash tags)
// work, and a release by someone who no longer owns the lock changes nothing.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { BACKENDS, eventually, useBackendContext, type AdapterName } from '@deadbolt/conformance';
import { exclusiveRole, type LockHold } from '@deadbolt/conformance/kinds';
import { InvalidArgumentError, LockLostError, type LockClient } from '@deadbolt/core';
import { Cluster, Redis } from 'ioredis';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { badInputTable, clientsOf, errorOf, type BadInputSubjects } from '../src/badInput/badInputTable.js';
import type { BadValue } from '../src/badInput/badValues.js';
import type { DeploymentClients } from '../src/badInput/kindBadInputs.js';
import { commandCalls } from '../src/checks/commandStats.js';
import { groupSubjectsOn, REDLOCK_DEPLOYMENTS, subjectsOn } from '../src/kinds.js';
import { recordFigures } from '../src/results/figures.js';

/** Each adapter's factory, with a driver client it accepts and those it must refuse (never connected). */
function adapterUnderTest(
  adapter: AdapterName,
  address: { host: string; port: number },
): BadInputSubjects['adapter'] & { close(): void } {
  if (adapter === 'ioredis') {
    const validClient = new Redis({ ...address, lazyConnect: true });
    const prefixed = new Redis({ ...address, lazyConnect: true, keyPrefix: 'app:' });
    const prefixedCluster = new Cluster([address], { lazyConnect: true, keyPrefix: 'app:' });
    const refusedClients: BadValue[] = [
      { label: 'a Redis with a keyPrefix', value: prefixed },
      { label: 'a Cluster with a keyPrefix', value: prefixedCluster },
    ];
    return {
      name: 'ioredisExecutor',
      factory: ioredisExecutor,
      validClient,
      refusedClients,
      close: () => [validClient, prefixed, prefixedCluster].forEach((client) => client.disconnect()),
    };
  }
  return {
    name: 'nodeRedisExecutor',
    factory: nodeRedisExecutor,
    validClient: createClient({ socket: address }),
    refusedClients: [],
    close: () => undefined,
  };
}

describe.each([...new Set(BACKENDS.map(({ adapter }) => adapter))])('bad input on %s', (adapter) => {
  // Servers of the test's own: the first for every kind, the others for RedLock's independent deployments.
  const contexts = Array.from({ length: REDLOCK_DEPLOYMENTS }, () =>
    useBackendContext(adapter, 'standalone', { dedicated: true }),
  );
  const subjects = subjectsOn('standalone');
  const groupSubjects = groupSubjectsOn('standalone');
  const clientPerServer = async (): Promise<DeploymentClients> => {
    const [first, ...others] = await Promise.all(contexts.map((ctx) => ctx.client()));
    if (first === undefined) throw new Error('no server');
    return [first, ...others];
  };

  it('every bad input to every entry point gets the right typed error, and Redis sees none of it', async () => {
    const nodes = contexts.map((ctx) => ctx.backend().nodes[0] ?? fail('the test needs servers of its own'));
    const [node] = nodes;
    if (node === undefined) throw new Error('the test needs a server of its own');
    const clients = await clientPerServer();
    const closedClients = await clientPerServer();
    await Promise.all(closedClients.map((client: LockClient) => client.close()));
    const releasedHolds: LockHold[] = [];
    for (const subject of [...subjects, ...groupSubjects]) {
      const held = await subject.kind
        .create(clientsOf(subject.kind, clients), contexts[0]!.uniqueName(subject.label), subject.role.name)
        .acquire();
      await held.release();
      releasedHolds.push(held);
    }
    const adapterSubjects = adapterUnderTest(adapter, node);
    const newExecutor = () => adapterSubjects.factory(adapterSubjects.validClient as never);
    const table = badInputTable({
      newExecutor,
      clients,
      closedClients,
      subjects,
      groupSubjects,
      releasedHolds,
      adapter: adapterSubjects,
    });

    const before = await Promise.all(nodes.map(commandCalls));
    const wrong: string[] = [];
    for (const entry of table) {
      for (const badInput of entry.cases) {
        const error = await errorOf(() => badInput.call(), 2_000);
        const named = error instanceof InvalidArgumentError ? error.argument : undefined;
        if (!(error instanceof badInput.error) || named !== badInput.argument) {
          wrong.push(
            `${entry.name} — ${badInput.input}: expected ${badInput.error.name}${badInput.argument ? `(${badInput.argument})` : ''}, got ${String(error)}`,
          );
        }
      }
    }
    const after = await Promise.all(nodes.map(commandCalls));
    adapterSubjects.close();

    const tried = table.reduce((sum, entry) => sum + entry.cases.length, 0);
    recordFigures(import.meta.url, `${adapter}/standalone`, { badInputs: tried });
    expect(wrong, `${wrong.length} of ${tried} bad inputs got the wrong answer`).toEqual([]);
    expect(after, 'commands Redis ran during the bad inputs').toEqual(before);
  });
});

function fail(message: string): never {
  throw new Error(message);
}

describe.each(BACKENDS)('odd but legal input on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const subjects = subjectsOn(topology);

  it('names with unicode and with hash tags are legal lock names, and each lock works', async () => {
    const client = await ctx.client();
    const suffix = ctx.uniqueName('legal');
    const names = [
      `ключ-锁-🔒-${suffix}`,
      `{🔒-tag}:${suffix}`,
      `{orders}{42}:${suffix}`,
      `orders:{ü}:${suffix}`,
      `café ${suffix}`,
    ];
    let operations = 0;
    for (const subject of subjects) {
      for (const name of names) {
        const lock = subject.kind.create([client], name, subject.role.name);
        const held = await lock.acquire({ waitTime: 5_000 });
        expect(lock.name).toBe(name);
        // The key is the name itself, byte for byte.
        expect(await ctx.backend().command(['EXISTS', name], name), `${subject.label} ${name}`).toBe(1);
        expect(await lock.holdCount(held.owner)).toBe(1);
        await held.release();
        expect(await lock.isLocked(), `${subject.label} ${name}`).toBe(false);
        operations++;
      }
    }
    recordFigures(import.meta.url, ctx.backend().name, { operations });
  });

  it('a release by a holder whose lease ran out, now a non-owner, rejects with the loss and changes nothing', async () => {
    const [first, second] = [await ctx.client(), await ctx.client()];
    for (const subject of subjects) {
      const name = ctx.uniqueName(subject.label);
      const stale = await subject.kind.create([first], name, subject.role.name).acquire({ leaseTime: 200 });
      const lock = subject.kind.create([second], name, exclusiveRole(subject.kind).name);
      const owner = await lock.acquire({ waitTime: 5_000 });
      const ttl = await lock.remainingTtl();
      await expect(stale.release(), subject.label).rejects.toBeInstanceOf(LockLostError);
      expect(await lock.holdCount(owner.owner), subject.label).toBe(1);
      expect(await lock.remainingTtl()).toBeLessThanOrEqual(ttl ?? 0);
      await owner.release();
      expect(await eventually(async () => !(await lock.isLocked())), subject.label).toBe(true);
    }
    recordFigures(import.meta.url, ctx.backend().name, { badInputs: subjects.length });
  });
});

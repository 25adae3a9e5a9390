// Issue 32, scenario 2: Sentinel failover with the old master on the minority side. A master, two
// replicas and three Sentinels (quorum 2), each on a host of its own, and three client hosts whose
// workers find the master through the Sentinels and hammer one lock, with the shared counter in a
// store both sides reach (over its Unix socket, as storage outside the partition). Right after a
// grant, the master's host and client1 are split off together: they reach each other and nobody
// else, silently. The majority's Sentinels fail over to a replica; the split lasts 3 s past that,
// then heals and Sentinel demotes the old master. Each run records the double grants (two owners
// holding the lock at once), the updates lost, the stale writes the fenced store refused and the
// grants on either side during the split:
// - measured, not checked: the plain lock (asynchronous replication), the plain lock with
//   `min-replicas-to-write 1`, the plain lock with replica sync of 1 of the 2 replicas, and the
//   fenced lock without replica sync (the guide says a failover can then repeat tokens);
// - checked: with replica sync of both replicas (as many as could be promoted, as the guide
//   says), no double grant and no update lost for the plain lock, and no stale write accepted
//   (no update lost) for the fenced lock.
// Every client host with holds left when the old master is demoted (the heal: until then it takes
// the minority's calls) must take the lock again after. Valkey GLIDE has no Sentinel client,
// so it is not run here.
import { afterEach, describe, expect, test } from 'vitest';
import { SENTINEL_BACKENDS } from '@deadbolt/conformance';
import type { ReplicaSyncOptions } from '@deadbolt/core';
import { splitOffDuringFailover, type SplitTimings } from '../src/chaos/chaosFaults.js';
import { hostsWithGrantsLeft, splitFigures } from '../src/chaos/chaosMeasures.js';
import { MIN_REPLICAS_ARGS, startChaosSentinel, SYNC_BOTH_REPLICAS } from '../src/chaos/chaosSentinel.js';
import { CHAOS_SHAPE } from '../src/chaos/chaosShape.js';
import { runChaosScenario, type ChaosFigures } from '../src/chaos/runChaosScenario.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { subjectsOn } from '../src/kinds.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';

const SPLIT_AFTER_FAILOVER_MS = 3_000;
// Each worker's holds of its one lock: enough that some are left once the old master is demoted
// (Sentinel waits about 8 s after the split heals before it demotes it; with 12, node-redis's
// workers had all finished by then).
const TASKS = 2;
const HOLDS_PER_TASK = 20;
const HOLDS_PER_WORKER = TASKS * HOLDS_PER_TASK;
// Starting six servers, the run (about 60 s), the heal and the demotion.
const RUN_TIMEOUT_MS = 180_000;

/** One run's lock and client settings, and what must hold of it. */
interface SplitRun {
  readonly name: string;
  readonly kind: 'Lock' | 'FencedLock';
  readonly replicaSync?: ReplicaSyncOptions;
  /** The data nodes' settings beyond the defaults. */
  readonly dataArgs?: readonly string[];
  readonly mustHold: string;
  readonly check: (figures: ChaosFigures) => void;
}

const NOT_CHECKED = () => undefined;

const RUNS: readonly SplitRun[] = [
  {
    name: 'plain lock',
    kind: 'Lock',
    mustHold: 'measured, not checked: asynchronous replication lets both masters grant',
    check: NOT_CHECKED,
  },
  {
    name: 'plain lock, min-replicas-to-write 1',
    kind: 'Lock',
    dataArgs: MIN_REPLICAS_ARGS,
    mustHold: 'measured, not checked: the old master grants until its replicas lag past min-replicas-max-lag',
    check: NOT_CHECKED,
  },
  {
    name: 'plain lock, replica sync (1 of 2 replicas)',
    kind: 'Lock',
    replicaSync: { replicas: 1, timeout: 500 },
    mustHold: 'measured, not checked: a replica that did not acknowledge may be promoted (the guide says so)',
    check: NOT_CHECKED,
  },
  {
    name: 'plain lock, replica sync (both replicas)',
    kind: 'Lock',
    replicaSync: SYNC_BOTH_REPLICAS,
    mustHold: 'no double grant, no update lost',
    check: (figures) => {
      expect(figures.doubleGrants, 'double grants').toBe(0);
      expect(figures.lostUpdates, 'updates lost').toBe(0);
    },
  },
  {
    name: 'fenced lock',
    kind: 'FencedLock',
    mustHold:
      'measured, not checked: without replica sync the new master may hand out tokens the old one did (the guide says so)',
    check: NOT_CHECKED,
  },
  {
    name: 'fenced lock, replica sync (both replicas)',
    kind: 'FencedLock',
    replicaSync: SYNC_BOTH_REPLICAS,
    mustHold: 'every stale write refused by the store: no update lost',
    check: (figures) => expect(figures.lostUpdates, 'updates lost (stale writes accepted)').toBe(0),
  },
];

describe.each(SENTINEL_BACKENDS)(
  'chaos on $adapter: Sentinel failover with the old master on the minority side',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test.each(RUNS)(
      '$name: $mustHold',
      async ({ name, kind, replicaSync, dataArgs, mustHold, check }) => {
        const deployment = await startChaosSentinel(await chaos.network(), 3, dataArgs);
        const { master, sentinels, store, clients } = deployment;
        const [minorityClient] = clients;
        if (minorityClient === undefined) throw new Error('no client host');
        const timings: SplitTimings = {};
        const majoritySentinel = sentinels[1];
        await runChaosScenario({
          testFile: import.meta.url,
          scenario: `2. Sentinel failover, old master on the minority side: ${name}`,
          tried:
            `a master, 2 replicas, 3 Sentinels and 3 client hosts, through the Sentinels; the master's host and ` +
            `client1 split off together (they reach each other only) until ${SPLIT_AFTER_FAILOVER_MS} ms past the ` +
            `majority's failover${replicaSync === undefined ? '' : `; replicaSync ${JSON.stringify(replicaSync)}`}: ${mustHold}`,
          check: (report, figures) => {
            // The heal is the old master's demotion: until then it still takes the minority's calls.
            const left = hostsWithGrantsLeft(report, report.faults.lastHeal, HOLDS_PER_WORKER);
            expect(left, 'client hosts with holds left at the heal').toBeGreaterThan(0);
            expect(figures.recoveredHosts, 'client hosts with holds left that took the lock after the heal').toBe(left);
            check(figures);
          },
          measuredOnly: check === NOT_CHECKED,
          split: (report) => splitFigures(report, timings, minorityClient.name),
          run: {
            adapter,
            server: master,
            spec: deployment.specFor(adapter),
            ...(replicaSync === undefined ? {} : { replicaSync }),
            store,
            storeOverSocket: true,
            clients: clients.map((host) => ({ host })),
            subjects: subjectsOn('standalone').filter((subject) => subject.kind.id === kind),
            shape: { ...CHAOS_SHAPE, tasksPerSubject: TASKS, holdsPerTask: HOLDS_PER_TASK },
            label: `split-${kind}-${replicaSync === undefined ? 'async' : 'sync'}-${adapter}`,
            faults: [
              splitOffDuringFailover([master.host, minorityClient], {
                failedOver: async () => (await deployment.masterAddress(majoritySentinel)) !== master.address.host,
                demoted: async () => ((await master.command(['ROLE'])) as unknown[])[0] === 'slave',
                splitAfterFailoverMs: SPLIT_AFTER_FAILOVER_MS,
                timings,
              }),
            ],
          },
        });
      },
      RUN_TIMEOUT_MS,
    );
  },
);

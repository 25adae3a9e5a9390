// Issue 32, scenario 6 under scenario 2: the semaphores and the count-down latch through a
// Sentinel failover with the old master on the minority side. The deployment of
// chaos-sentinel-split (a master, two replicas and three Sentinels, each on a host of its own,
// three client hosts reaching the master through the Sentinels, a store both sides reach over its
// Unix socket); right after a grant the master's host and client1 are split off together (they
// reach each other only) until 3 s past the majority's failover, then joined again, and Sentinel
// demotes the old master.
// - The semaphores: one task on each client host takes one permit of a semaphore of 2, 60 times,
//   holding it 400 ms, counted at the store while it holds it. Replication is asynchronous and,
//   without `LockClientOptions.replicaSync`, the semaphores wait for no replica, so both masters
//   may grant meanwhile, and
//   what the old master did is gone once it is demoted: permits may be invented (more holders at
//   once than permits) or lost for good (fewer free at the end: a permit taken before the split
//   and given back to the old master, as the minority side does, and ioredis's majority-side
//   workers too, whose client stays on the old master until it is demoted). Those counts are
//   measured, not checked (`measuredOnly`). Workers granted nothing for 10 s after the demotion
//   (every permit lost) are killed, so that the run is measured; their hosts never recovered.
// - The semaphores again with replica sync of both replicas (as many as could be promoted): a
//   grant waits until both replicas have it and is given back when they do not confirm, so the
//   old master, cut off from them, grants nothing that holds. Checked: never more holders than
//   permits. A release given to the old master is still lost with it (for good for a Semaphore):
//   measured, and for the leased kind every host with grants left must recover.
// - The latch (of 6, 2 waiters on each host, counted down from the hosts in turn): the 4th
//   countdown is sent from client1 while split off, and the old master takes it; what the
//   demotion drops is counted (`countdownsLost`) and counted down again once every countdown came
//   back. A failover can lose countdowns, never make them: checked, no waiter let through before
//   the count's countdowns were sent, and every waiter let through in the end.
// What every run must show: nothing of the run is left behind (namespaces, processes), and every
// client host with grants left (every host, for the latch) is granted again once the old master
// was demoted, but for the Semaphore, whose permits have no lease: one lost stays lost. Valkey GLIDE has no Sentinel client, so it is not run here.
import { afterEach, describe, expect, test } from 'vitest';
import { SENTINEL_BACKENDS } from '@deadbolt/conformance';
import { splitOffDuringFailover, type SplitTimings } from '../src/chaos/chaosFaults.js';
import { splitFigures } from '../src/chaos/chaosMeasures.js';
import { expectPermitsRecovered, runChaosPermitScenario } from '../src/chaos/chaosPermitScenario.js';
import { startChaosSentinel, SYNC_BOTH_REPLICAS } from '../src/chaos/chaosSentinel.js';
import { CHAOS_SHAPE } from '../src/chaos/chaosShape.js';
import { expectLatchKept, runChaosLatchScenario } from '../src/chaos/runChaosLatch.js';
import { removeNetwork, useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { PERMIT_KINDS } from '../src/semaphore/permitKinds.js';

const SPLIT_AFTER_FAILOVER_MS = 3_000;
// Starting six servers, the run (about 40 s), the heal and the demotion.
const RUN_TIMEOUT_MS = 120_000;
const PERMITS = 2;
// Enough for the run to go on past the demotion (Sentinel waits 8 s before it demotes a master back).
const HOLDS_PER_TASK = 60;
const LATCH_COUNT = 6;
// The 4th countdown, client1's turn: sent to the old master while split off.
const COUNTDOWNS_BEFORE_SPLIT = 3;
// The semaphores' runs: without replica sync (their counts measured), and with it (checked).
const SYNC_RUNS = [
  { sync: 'off', replicaSync: undefined, mustHold: 'permits invented or lost measured' },
  { sync: 'of both replicas', replicaSync: SYNC_BOTH_REPLICAS, mustHold: 'never more holders than permits' },
] as const;
const SCENARIO = '6. Sentinel failover, old master on the minority side, during permit holds and latch waits';
const TRIED =
  `a master, 2 replicas, 3 Sentinels and 3 client hosts, through the Sentinels, taking permits of a semaphore of ` +
  `${PERMITS} (one task each), or waiting on a count-down latch of ${LATCH_COUNT} that they count down in turn; the ` +
  `master's host and client1 split off together until ${SPLIT_AFTER_FAILOVER_MS} ms past the majority's failover ` +
  `(the latch's 4th countdown sent from client1 meanwhile)`;

describe.each(SENTINEL_BACKENDS)(
  'chaos on $adapter: Sentinel failover with the old master on the minority side, during permit holds and latch waits',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    // The deployment, how the workers reach it, and the split with the failover.
    async function splitDeployment() {
      const network = await chaos.network();
      const deployment = await startChaosSentinel(network, 3);
      const { master, sentinels, store, clients } = deployment;
      const [minorityClient] = clients;
      if (minorityClient === undefined) throw new Error('no client host');
      const timings: SplitTimings = {};
      const majoritySentinel = sentinels[1];
      return {
        network,
        clients,
        reach: {
          adapter,
          server: master,
          spec: deployment.specFor(adapter),
          store,
          storeOverSocket: true,
          serverNow: () => deployment.currentMaster(),
        },
        fault: splitOffDuringFailover([master.host, minorityClient], {
          failedOver: async () => (await deployment.masterAddress(majoritySentinel)) !== master.address.host,
          demoted: async () => ((await master.command(['ROLE'])) as unknown[])[0] === 'slave',
          splitAfterFailoverMs: SPLIT_AFTER_FAILOVER_MS,
          timings,
        }),
        split: (placed: Parameters<typeof splitFigures>[0]) => splitFigures(placed, timings, minorityClient.name),
      };
    }

    test.each(PERMIT_KINDS.flatMap((kind) => SYNC_RUNS.map((run) => ({ kind, id: kind.id, ...run }))))(
      '$id, replica sync $sync: $mustHold; nothing left behind',
      async ({ kind, replicaSync }) => {
        const { network, clients, reach, fault, split } = await splitDeployment();
        const synced = replicaSync !== undefined;
        await runChaosPermitScenario({
          testFile: import.meta.url,
          scenario: synced ? `${SCENARIO}, replica sync (both replicas)` : SCENARIO,
          tried: synced
            ? `${TRIED}; replicaSync ${JSON.stringify(replicaSync)}: no permit granted without both replicas, so ` +
              'never more holders than permits; lost permits measured (a release given to the old master is lost ' +
              'with it: for good for a Semaphore)'
            : `${TRIED}: the permit counts measured, not checked`,
          run: {
            ...reach,
            ...(synced ? { replicaSync } : {}),
            kind,
            clients,
            permits: PERMITS,
            tasks: 1,
            holdsPerTask: HOLDS_PER_TASK,
            workMs: CHAOS_SHAPE.workMs,
            watchdogTimeout: CHAOS_SHAPE.watchdogTimeout,
            commandTimeout: CHAOS_SHAPE.commandTimeout,
            label: `split-permits-${synced ? 'sync-' : ''}${adapter}-${kind.id}`,
            faults: [fault],
          },
          check: (measures) => {
            if (synced) expect(measures.holdersOverLimit, 'grants with more holders than permits').toBe(0);
            // A Semaphore's permits have no lease: one given back to the old master while split off
            // is gone with its demotion and stays taken on the new one, for good, so its hosts may
            // never be granted again (seen on ioredis). Only a leased permit comes back.
            if (kind.leased) expectPermitsRecovered(measures);
          },
          measuredOnly: !synced,
          split,
        });
        expect(await removeNetwork(network), 'left behind').toEqual({ namespaces: [], pids: [] });
      },
      RUN_TIMEOUT_MS,
    );

    test(
      'CountDownLatch: never opens early, opens for every waiter once counted down; nothing left behind',
      async () => {
        const { network, clients, reach, fault, split } = await splitDeployment();
        await runChaosLatchScenario({
          testFile: import.meta.url,
          scenario: SCENARIO,
          tried: TRIED,
          run: {
            ...reach,
            clients,
            count: LATCH_COUNT,
            waiters: 2,
            commandTimeout: CHAOS_SHAPE.commandTimeout,
            label: `split-latch-${adapter}`,
            fault,
            countdownsBefore: COUNTDOWNS_BEFORE_SPLIT,
          },
          check: expectLatchKept,
          split,
        });
        expect(await removeNetwork(network), 'left behind').toEqual({ namespaces: [], pids: [] });
      },
      RUN_TIMEOUT_MS,
    );
  },
);

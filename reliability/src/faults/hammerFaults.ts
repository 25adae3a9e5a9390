import { DEFAULT_SUBSCRIBER_NAME } from '@deadbolt/core/adapter';
import { sleep } from '@deadbolt/test-harness';
import { monotonicMicros } from '../clock.js';
import type { HammerFault } from '../hammer/runHammer.js';
import { failOver, restartEmpty, restartWithData } from './serverFaults.js';

/** SIGKILL a worker, in the middle of a hold when one is: its locks stay taken until their lease ends. */
export const killHolder: HammerFault = {
  type: 'holder process SIGKILL',
  async inject({ holdingWorker }) {
    await holdingWorker().kill();
  },
};

/**
 * Freezes a worker (SIGSTOP) for `ms`, then lets it go on (SIGCONT). Within a third of the
 * watchdog lease, the lease outlasts the freeze and nothing may overlap; past the lease, another
 * owner may take the lock, which only a fenced store can make safe.
 */
export function pauseHolder(
  ms: number,
  type: 'process SIGSTOP within lease' | 'holder process SIGSTOP past lease',
): HammerFault {
  return {
    type,
    async inject({ holdingWorker, log }) {
      const worker = holdingWorker();
      const from = monotonicMicros();
      await worker.pause();
      await sleep(ms);
      worker.resume();
      log.recordPause({ pid: worker.pid, from, to: monotonicMicros() });
    },
  };
}

/**
 * Kills every subscriber connection of the workers (CLIENT KILL), on every deployment: wake-ups in
 * flight are lost. Throws when there was none to kill.
 */
export const killWorkerSubscribers: HammerFault = {
  type: 'subscriber CLIENT KILL',
  async inject({ backend, otherBackends }) {
    const killed = await Promise.all(
      [backend, ...otherBackends].map((each) => each.killClientsByName(DEFAULT_SUBSCRIBER_NAME)),
    );
    if (killed.every((count) => count === 0)) throw new Error(`no connection named ${DEFAULT_SUBSCRIBER_NAME} to kill`);
  },
};

// Long enough for every worker to notice, short enough for every watchdog to renew in time.
const SERVER_DOWN_MS = 300;

/** SIGKILLs the standalone server and starts it again from its append-only file. */
export const restartServerWithData: HammerFault = {
  type: 'redis restart with data',
  async inject({ backend }) {
    await restartWithData(backend, SERVER_DOWN_MS);
  },
};

/** Fails the master of the locks' slot over to its replica (CLUSTER FAILOVER). */
export const failOverLockMaster: HammerFault = {
  type: 'cluster manual failover',
  async inject({ backend, lockNames }) {
    const [name] = lockNames.values();
    if (name === undefined) throw new Error('no lock to fail over');
    await failOver(backend, name);
  },
};

/**
 * SIGKILLs the server of one of a RedLock's independent deployments and starts it again empty:
 * holders keep their quorum on the others, and nobody else can gather one.
 */
export const restartRedLockNodeEmpty: HammerFault = {
  type: 'redlock node restarted empty',
  async inject({ otherBackends }) {
    const [node] = otherBackends;
    if (node === undefined) throw new Error('no second deployment to restart');
    await restartEmpty(node, SERVER_DOWN_MS);
  },
};

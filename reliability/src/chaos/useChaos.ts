import { isAlive } from '@deadbolt/test-harness';
import { afterEach } from 'vitest';
import { ChaosNetwork } from './ChaosNetwork.js';
import { ip, namespaceNames } from './ipCommand.js';

/** A faked clock: its files go once its processes have ended. */
interface DisposableClock {
  dispose(): void;
}

/** What a test file gets from {@link useChaos}. */
export interface ChaosScope {
  /** A new network of test hosts, removed after the test that made it. */
  network(): Promise<ChaosNetwork>;
  /** Keeps a faked clock (a client's or a server's) to dispose of after the test. */
  clock<Clock extends DisposableClock>(clock: Clock): Clock;
}

/** What of a removed network is still there: nothing, when its removal went well. */
export interface LeftBehind {
  /** Its namespaces still listed by `ip netns`. */
  readonly namespaces: readonly string[];
  /** The processes that ran on its hosts and still run. */
  readonly pids: readonly number[];
}

/**
 * Removes `network` now, as every test's cleanup does (see {@link ChaosNetwork.remove}), and
 * returns what of it is left: for a test that requires nothing is.
 */
export async function removeNetwork(network: ChaosNetwork): Promise<LeftBehind> {
  const listed = await Promise.all(network.namespaces.map((namespace) => ip('netns', 'pids', namespace)));
  const pids = listed.flatMap((lines) => lines.split('\n').filter(Boolean).map(Number));
  await network.remove();
  const names = await namespaceNames();
  return {
    namespaces: network.namespaces.filter((namespace) => names.includes(namespace)),
    pids: pids.filter(isAlive),
  };
}

/**
 * Gives a test file networks of test hosts that are removed after each test, also one that failed:
 * every process placed on their hosts is killed and every namespace deleted.
 */
export function useChaos(): ChaosScope {
  const networks: ChaosNetwork[] = [];
  const clocks: DisposableClock[] = [];
  afterEach(async () => {
    const made = networks.splice(0);
    await Promise.all(made.map((network) => network.remove()));
    for (const clock of clocks.splice(0)) clock.dispose();
  });
  return {
    network: async () => {
      const network = await ChaosNetwork.create();
      networks.push(network);
      return network;
    },
    clock: (clock) => {
      clocks.push(clock);
      return clock;
    },
  };
}

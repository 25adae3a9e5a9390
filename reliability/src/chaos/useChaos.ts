import { afterEach } from 'vitest';
import { ChaosNetwork } from './ChaosNetwork.js';

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

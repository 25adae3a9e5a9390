/** Anything the proxy registry can stop: a proxy or a group of proxies. */
export interface Stoppable {
  close(): Promise<void>;
}

const live = new Set<Stoppable>();

/** For proxies: remembers a proxy until it is closed. */
export function registerProxy(proxy: Stoppable): void {
  live.add(proxy);
}

/** For proxies: forgets a closed proxy. */
export function unregisterProxy(proxy: Stoppable): void {
  live.delete(proxy);
}

/** How many fault proxies of this process are open. */
export function openProxyCount(): number {
  return live.size;
}

/**
 * Closes every fault proxy this process started and has not closed yet: call it in a test's
 * teardown (`afterEach(stopAllProxies)`), so that a failed test leaves no listener, socket or
 * timer behind. Proxies live in the test process, so they end with it anyway.
 */
export async function stopAllProxies(): Promise<void> {
  await Promise.all([...live].map((proxy) => proxy.close()));
}

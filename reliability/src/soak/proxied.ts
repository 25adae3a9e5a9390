import {
  connectExecutor,
  type Backend,
  type ConnectedExecutor,
  type ConnectOptions,
} from '@deadbolt/conformance/connect';
import { startFaultProxy, type FaultProxy } from '@deadbolt/test-harness';

/**
 * A standalone backend whose lock clients connect through the harness's fault proxy, while the
 * model's raw reads (`command`) go to Redis directly. The soak varies the proxy's latency and
 * jitter between model checks: faults the model's tolerances allow, without errors it would have
 * to explain.
 */
export interface ProxiedBackend {
  readonly backend: Backend;
  readonly proxy: FaultProxy;
  close(): Promise<void>;
}

/** Puts a fault proxy in front of a standalone `backend`. */
export async function proxied(backend: Backend): Promise<ProxiedBackend> {
  const [target] = backend.spec.nodes;
  if (backend.spec.topology !== 'standalone' || target === undefined)
    throw new Error('the soak proxies standalone backends only');
  const proxy = await startFaultProxy({ host: target.host, port: target.port });
  const opened: ConnectedExecutor[] = [];
  const spec = { ...backend.spec, nodes: [{ host: proxy.host, port: proxy.port }] };
  const connect = async (options?: ConnectOptions) => {
    const connected = await connectExecutor(spec, options);
    opened.push(connected);
    return connected;
  };
  const wrapped: Backend = {
    name: `${backend.name}+proxy`,
    spec,
    nodes: backend.nodes,
    cluster: backend.cluster,
    connect,
    createExecutor: async (options) => (await connect(options)).executor,
    command: (args, key) => backend.command(args, key),
    pubsubChannels: (pattern) => backend.pubsubChannels(pattern),
    connectionsNamed: (name) => backend.connectionsNamed(name),
    killClientsByName: (name) => backend.killClientsByName(name),
    close: async () => {
      await Promise.allSettled(opened.splice(0).map((connected) => connected.close()));
    },
  };
  return {
    backend: wrapped,
    proxy,
    close: async () => {
      await wrapped.close();
      await proxy.close();
    },
  };
}

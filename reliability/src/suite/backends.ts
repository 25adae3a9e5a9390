import { BACKENDS, type AdapterName, type TopologyName } from '@deadbolt/conformance';

/** The backends of the matrix (narrowed by DEADBOLT_BACKENDS) on one topology, for `describe.each`. */
export function backendsOn(topology: TopologyName): readonly { readonly adapter: AdapterName; readonly topology: TopologyName }[] {
  return BACKENDS.filter((entry) => entry.topology === topology);
}

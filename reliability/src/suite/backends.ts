import { BACKENDS, type AdapterOnTopology, type TopologyName } from '@deadbolt/conformance';

/** The backends of the matrix (narrowed by DEADBOLT_BACKENDS) on one topology, for `describe.each`. */
export function backendsOn(topology: TopologyName): readonly AdapterOnTopology[] {
  return BACKENDS.filter((entry) => entry.topology === topology);
}

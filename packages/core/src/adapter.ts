/**
 * Building blocks for adapter authors: `@deadbolt/core/adapter`. An adapter implements the
 * `Executor` of `@deadbolt/core` on a Redis driver; these are the parts of that contract and what
 * every adapter shares: its options, the subscriber router and links, the cluster slot of a key
 * and the argument check of a driver client. The few helpers adapters share with lock kinds
 * (`checkOptions`, `defineScript`, `ScriptArgument`) stay in `@deadbolt/core/kit`. Applications
 * need only `@deadbolt/core`.
 *
 * @packageDocumentation
 */

// The parts of the Executor contract.
export type { CommandArguments, ExecutorListener } from './executor/Executor.js';

// Subscriptions: one connection per node, each channel on the node that owns its slot.
export { SubscriberRouter, type Topology } from './adapter/SubscriberRouter.js';
export type { LinkEvents, SubscriberLink } from './adapter/SubscriberLink.js';
export { DriverLink, type DriverLinkStatus } from './adapter/DriverLink.js';
export { hashSlot } from './keys/hashSlot.js';

// Options and argument checks.
export { DEFAULT_SUBSCRIBER_NAME, resolveAdapterOptions, type AdapterOptions } from './adapter/AdapterOptions.js';
export { checkMethods } from './options/validate.js';

import { InvalidArgumentError } from '../errors/LockError.js';
import { checkOptions, describeValue } from '../options/validate.js';

/** Options every adapter takes. */
export interface AdapterOptions {
  /**
   * The name (`CLIENT SETNAME`) of every subscriber connection the adapter opens, so that
   * operators can tell them apart in `CLIENT LIST`. Printable ASCII without spaces.
   *
   * @defaultValue `'deadbolt-subscriber'`
   */
  readonly subscriberName?: string;
}

/** The name the adapters' subscriber connections carry unless told otherwise. */
export const DEFAULT_SUBSCRIBER_NAME = 'deadbolt-subscriber';

/** Checks an adapter's options before anything reaches Redis, and fills in the defaults. For adapter authors. */
export function resolveAdapterOptions(options: unknown): Required<AdapterOptions> {
  const { subscriberName = DEFAULT_SUBSCRIBER_NAME } = checkOptions<AdapterOptions>(options, ['subscriberName']);
  // The server refuses names with spaces, newlines or other non-printable characters.
  if (typeof subscriberName !== 'string' || !/^[!-~]+$/.test(subscriberName)) {
    throw new InvalidArgumentError(
      'options.subscriberName',
      `must be a non-empty string of printable ASCII without spaces, got ${describeValue(subscriberName)}`,
    );
  }
  return { subscriberName };
}

/** Options for the connections the adapter opens, on top of a copy of the user's client options. */
export function subscriberOptions(name: string): { name: string; disableOfflineQueue: boolean } {
  return {
    name,
    // A subscription made while the connection is still opening or reconnecting waits for it.
    disableOfflineQueue: false,
  };
}

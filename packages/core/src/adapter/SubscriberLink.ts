/** What a {@link SubscriberLink} reports to the router that opened it. */
export interface LinkEvents {
  /** A message arrived on a classic or sharded channel. */
  message(channel: string, message: string): void;
  /** The connection dropped; the driver is reconnecting. */
  lost(): void;
  /** The connection came back and every channel of the link is subscribed again. */
  restored(): void;
  /**
   * The link lost channels because their slot moved elsewhere (the server dropped them, or
   * refused to restore them); the router subscribes them again where they now belong.
   */
  moved(): void;
}

/**
 * One subscriber connection to one Redis node, opened and owned by the adapter. The link keeps
 * its channels subscribed across reconnects; which node a channel belongs to is the router's
 * business.
 */
export interface SubscriberLink {
  /** Subscribes a channel (`SSUBSCRIBE` when sharded) and resolves once the server confirmed. */
  subscribe(channel: string, sharded: boolean): Promise<void>;
  /**
   * Unsubscribes a channel. While the connection is down this resolves at once: the channel is
   * simply not restored on reconnect.
   */
  unsubscribe(channel: string, sharded: boolean): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
}

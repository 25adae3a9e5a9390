// Key and channel names as Redisson's RedissonObject derives them. The peer computes its names
// here rather than through Deadbolt's helpers, so that a naming mistake in Deadbolt shows up as
// a failed interop test instead of being shared by both sides.

/**
 * `prefix:{name}`, or `prefix:name` when the name already has a brace (its own hash tag):
 * Redisson's `prefixName`, used for channels, fair-lock queues and the fencing token.
 */
export function prefixName(prefix: string, name: string): string {
  return name.includes('{') ? `${prefix}:${name}` : `${prefix}:{${name}}`;
}

/** `{name}:suffix`, or `name:suffix` when the name has a brace: Redisson's `suffixName`. */
export function suffixName(name: string, suffix: string): string {
  return name.includes('{') ? `${name}:${suffix}` : `{${name}}:${suffix}`;
}

/** The key that remembers one unlock request's outcome: `redisson_unlock_latch:{name}:<requestId>`. */
export function unlockLatchName(name: string, requestId: string): string {
  return `${prefixName('redisson_unlock_latch', name)}:${requestId}`;
}

/** `redisson_sc:{name}` (`redisson_sc:name` when the name has a brace): `RedissonSemaphore.getChannelName`. */
export function semaphoreChannelName(name: string): string {
  return prefixName('redisson_sc', name);
}

/**
 * `redisson_countdownlatch__channel__{name}`: `RedissonCountDownLatch`'s channel, which wraps the
 * name in braces whatever it holds (unlike `prefixName`).
 */
export function countDownLatchChannelName(name: string): string {
  return `redisson_countdownlatch__channel__{${name}}`;
}

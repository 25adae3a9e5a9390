/**
 * Keeps a benchmark process alive through unhandled rejections that a library raises from its
 * own timers (node-redisson's wait timeouts fire after the client quit), and reports each one:
 * a peer's defect is a finding, not a reason to lose the whole run.
 */
export function tolerateStrayRejections(where: string): void {
  let count = 0;
  process.on('unhandledRejection', (reason) => {
    // The first one tells what it is; the rest would drown the progress lines.
    if (count++ > 0) return;
    const message = reason instanceof Error ? reason.message : String(reason);
    console.error(
      `[${where}] unhandled rejection raised by a library, ignored (further ones are not shown): ${message}`,
    );
  });
}

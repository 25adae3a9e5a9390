// Getting started with Valkey GLIDE: a lock client over a GlideClient, made from the same
// configuration as the client, and two jobs taking turns on one lock (the second is woken by the
// first one's release, over the subscriber client the adapter opens).
//
//   REDIS_URL=redis://localhost:6379 npx tsx getting-started-valkey-glide.ts
import { GlideClient } from '@valkey/valkey-glide';
import { LockClient } from '@deadbolt/core';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';

const url = new URL(process.env.REDIS_URL ?? 'redis://localhost:6379');
const connection = { addresses: [{ host: url.hostname, port: Number(url.port || 6379) }] };
const glide = await GlideClient.createClient(connection);
const locks = new LockClient(valkeyGlideExecutor(glide, { connection }));
const report = locks.lock('report:2026-11');

// Two jobs want the same report: the second waits until the first one's release wakes it.
const order: string[] = [];
await Promise.all(
  ['first', 'second'].map((job) =>
    report.withLock(async () => {
      order.push(job);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }),
  ),
);
console.log(`held in turn by: ${order.join(', ')}`);

await locks.close(); // closes what Deadbolt opened; your `glide` stays open
glide.close();

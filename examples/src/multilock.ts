// MultiLock: several locks held all-or-nothing, on one Redis deployment or across several, and two
// MultiLocks over the same locks in opposite orders never deadlock.
//
//   REDIS_URLS=redis://host-a:6379,redis://host-b:6379 npx tsx multilock.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { MultiLock } from '@deadbolt/multilock';

// Two databases of one local server only to try it out: in production, two deployments.
const [url, warehouseUrl] = (process.env.REDIS_URLS ?? 'redis://localhost:6379/1,redis://localhost:6379/2').split(',');
const redis = new Redis(url ?? 'redis://localhost:6379/1');
const locks = new LockClient(ioredisExecutor(redis));

const transfer = new MultiLock([locks.lock('account:alice'), locks.lock('account:bob')]);

// Both accounts or neither: taken together, released together.
await transfer.withLock(
  async (signal, held) => {
    console.log(`holding ${held.members.length} locks, lost: ${signal.aborted}`);
  },
  { waitTime: 5_000 },
);

// All or nothing: while bob's account is held elsewhere, the transfer takes neither account.
const elsewhere = await locks.lock('account:bob').acquire();
const attempt = await transfer.tryAcquire();
console.log(
  `transfer while bob is held elsewhere: ${attempt === null ? 'null' : 'acquired'}; alice locked: ${await locks.lock('account:alice').isLocked()}`,
);
await elsewhere.release();

// The same locks in the other order: running both at once cannot deadlock.
const refund = new MultiLock([locks.lock('account:bob'), locks.lock('account:alice')]);
await Promise.all([
  transfer.withLock(() => console.log('transfer'), { waitTime: 5_000 }),
  refund.withLock(() => console.log('refund'), { waitTime: 5_000 }),
]);

{
  await using held = await transfer.acquire({ waitTime: 5_000, leaseTime: 10_000 });
  console.log(`every member's lease: ${held.members.map((member) => member.leaseTime).join(', ')} ms`);
} // every member released here, also when the block throws

// Members may live on different deployments, or in different slots of a cluster: each member is
// taken by its own script on its own client.
const warehouseRedis = new Redis(warehouseUrl ?? 'redis://localhost:6379/2');
const warehouse = new LockClient(ioredisExecutor(warehouseRedis));
const order = new MultiLock([locks.lock('order:42'), warehouse.lock('stock:sku-9')]);
await order.withLock(async (_signal, held) => {
  const names = held.members.map((member) => member.name).join(' and ');
  console.log(
    `holding ${names}; stock lock on the warehouse server: ${(await warehouseRedis.exists('stock:sku-9')) === 1}`,
  );
});

await Promise.all([locks.close(), warehouse.close()]);
await Promise.all([redis.quit(), warehouseRedis.quit()]);

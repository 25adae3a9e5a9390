// Compile-time check, run by `tsc --noEmit`: the kinds of ioredis clients are accepted without
// casts, whatever reply mapping they were created with. Nothing here connects.
import { Cluster, Redis } from 'ioredis';
import { ioredisExecutor } from '../src/index.js';

export function acceptsEveryClient(): void {
  ioredisExecutor(new Redis({ lazyConnect: true }));
  ioredisExecutor(new Redis({ lazyConnect: true, protocol: 2 }));
  ioredisExecutor(new Redis({ lazyConnect: true, replyMapping: 'resp3' }));
  ioredisExecutor(new Cluster([], { lazyConnect: true }));
  ioredisExecutor(new Cluster([], { lazyConnect: true, redisOptions: { replyMapping: 'resp3' } }), {
    subscriberName: 'x',
  });
}

// TLS, an ACL user granted only what the plain Lock needs, and the eviction policy check.
//
//   REDIS_TLS_URL=rediss://127.0.0.1:6380 REDIS_CA_FILE=ca.crt npx tsx tls-acl-eviction.ts
//
// The example sets itself up as the default user (an operator's job in real life): it creates the
// ACL user `locks-app` and, for a moment, switches the server to an evicting policy.
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { EvictionRiskError, LockClient, PermissionDeniedError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';

const url = process.env.REDIS_TLS_URL ?? 'rediss://127.0.0.1:6380';
const ca = readFileSync(process.env.REDIS_CA_FILE ?? 'ca.crt', 'utf8');

// TLS: a rediss:// address and the CA that signed the server's certificate. The adapters'
// subscriber connections are copies of these clients, so they use TLS too.
const admin = new Redis(url, { tls: { ca } });
const locks = new LockClient(ioredisExecutor(admin));
const held = await locks.lock('reports:2026-11').acquire();
console.log(`locked over TLS: ${await locks.lock('reports:2026-11').isLocked()}`);
await held.release();

// ACL: the rule for the plain Lock, for lock names that start with `payments:`.
await admin.call(
  'ACL',
  'SETUSER',
  'locks-app',
  'reset',
  'on',
  '>app-secret',
  'resetchannels',
  '+eval',
  '+evalsha',
  '+info',
  '+ping',
  '+time',
  '+client|setname',
  '+subscribe',
  '+unsubscribe',
  '+ssubscribe',
  '+sunsubscribe',
  '+del',
  '+exists',
  '+get',
  '+set',
  '+hdel',
  '+hexists',
  '+hget',
  '+hgetall',
  '+hincrby',
  '+hset',
  '+persist',
  '+pexpire',
  '+pttl',
  '+publish',
  '+spublish',
  '~payments:*',
  '~deadbolt_holds:{payments:*',
  '~deadbolt_request:{payments:*',
  '~redisson_lock__channel:{payments:*',
  '&redisson_lock__channel:{payments:*',
);
const app = await createClient({
  url,
  username: 'locks-app',
  password: 'app-secret',
  socket: { tls: true, ca },
}).connect();
const appLocks = new LockClient(nodeRedisExecutor(app));
await appLocks.lock('payments:invoice-7').withLock(() => console.log('locks-app holds payments:invoice-7'));
try {
  await appLocks.lock('orders:42').acquire();
} catch (error) {
  if (!(error instanceof PermissionDeniedError)) throw error;
  console.log(`orders:42 is not granted: PermissionDeniedError, missing ${error.missing}`);
}

// Eviction: a policy that may evict lock keys is reported once per client, at its first operation.
await admin.call('CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
const warned = new LockClient(ioredisExecutor(admin)); // evictionPolicy: 'warn', the default
warned.on('evictionRisk', ({ policy }) => console.log(`evictionRisk: maxmemory-policy is ${policy}`));
await warned.lock('reports:2026-12').withLock(() => undefined);

const strict = new LockClient(ioredisExecutor(admin), { evictionPolicy: 'throw' });
await strict
  .lock('reports:2026-12')
  .acquire()
  .catch((error: unknown) => {
    if (error instanceof EvictionRiskError) console.log(`evictionPolicy 'throw': EvictionRiskError (${error.policy})`);
  });
await admin.call('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');

await Promise.all([locks.close(), appLocks.close(), warned.close(), strict.close()]);
await admin.call('ACL', 'DELUSER', 'locks-app');
await app.close();
await admin.quit();

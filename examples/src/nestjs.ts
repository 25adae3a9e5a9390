// NestJS: DeadboltModule gives the application a LockClient, and @WithLock runs a method under a
// lock (InvoiceModule.ts). Two concurrent requests for one invoice issue it once; a request that
// cannot get the lock in time fails with HTTP 423 Locked.
//
//   REDIS_URL=redis://localhost:6379 npx tsx nestjs.ts
import 'reflect-metadata';
import { HttpException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LockClient } from '@deadbolt/core';
import { InvoiceModule, InvoiceService } from './InvoiceModule.js';

const app = await NestFactory.createApplicationContext(
  InvoiceModule.connect(process.env.REDIS_URL ?? 'redis://localhost:6379'),
  { logger: false },
);
const invoices = app.get(InvoiceService);

const answers = await Promise.all([invoices.issue('7'), invoices.issue('7')]);
console.log(answers.sort().join('\n'));

// Another process holds invoice 8 for longer than `issue` waits.
const held = await app.get(LockClient).lock('invoices:8').acquire();
await invoices.issue('8').catch((error: HttpException) => console.log(`invoice 8: HTTP ${error.getStatus()}`));
await held.release();

await app.close(); // closes the LockClient, and the Redis connection DeadboltModule opened for the URL

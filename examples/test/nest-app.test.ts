// An application test: the Nest application of src/InvoiceModule.ts on a throwaway redis-server
// from @deadbolt/testing, under vitest. examples/jest has the same under jest.
import 'reflect-metadata';
import { Test } from '@nestjs/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { LockClient } from '@deadbolt/core';
import { lockHolders, useTestRedis, waitUntilReleased } from '@deadbolt/testing';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { InvoiceModule, InvoiceService } from '../src/InvoiceModule.js';

const redis = useTestRedis({ beforeAll, afterAll });
let app: INestApplicationContext;

beforeEach(async () => {
  const moduleRef = await Test.createTestingModule({ imports: [InvoiceModule.connect(redis().url)] }).compile();
  app = await moduleRef.init();
});
afterEach(() => app.close());

it('issues an invoice once however many requests race for it', async () => {
  const invoices = app.get(InvoiceService);
  const answers = await Promise.all([invoices.issue('1'), invoices.issue('1'), invoices.issue('1')]);
  expect(answers.filter((answer) => answer === 'invoice 1 issued')).toHaveLength(1);
});

it('holds the invoice lock while issuing, and releases it after', async () => {
  const locks = app.get(LockClient);
  const issuing = app.get(InvoiceService).issue('2');
  await expect.poll(() => lockHolders(locks, 'invoices:2')).toEqual([expect.objectContaining({ holds: 1 })]);
  await waitUntilReleased(locks.lock('invoices:2'));
  expect(await issuing).toBe('invoice 2 issued');
});

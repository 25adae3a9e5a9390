// The application test of nest-app.test.ts under jest: the Nest application of
// src/InvoiceModule.ts on a throwaway redis-server from @deadbolt/testing.
import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { LockClient } from '@deadbolt/core';
import { lockHolders, useTestRedis } from '@deadbolt/testing';
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
  const answers = await Promise.all([invoices.issue('1'), invoices.issue('1')]);
  expect(answers.sort()).toEqual(['invoice 1 issued', 'invoice 1 was already issued']);
  expect(await lockHolders(app.get(LockClient), 'invoices:1')).toEqual([]);
});

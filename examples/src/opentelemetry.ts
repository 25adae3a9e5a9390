// Metrics and traces of a LockClient with @deadbolt/opentelemetry. The application sets up the
// OpenTelemetry SDK as it always does (in production with OTLP exporters to a collector; here with
// the SDK's in-memory exporters, so that the program can print what was recorded), and the
// instrumentation records through the global providers.
//
//   REDIS_URL=redis://localhost:6379 npx tsx opentelemetry.ts
import { Redis } from 'ioredis';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { instrumentLockClient } from '@deadbolt/opentelemetry';

const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
const spanExporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
trace.setGlobalTracerProvider(tracerProvider);
// The active span follows async calls (the Node SDK registers this context manager for you).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const tracer = trace.getTracer('billing');

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));
// One series per kind of job, not per lock: `invoices:2026-11` is counted as `invoices`.
const telemetry = instrumentLockClient(locks, { lockNames: (name) => name.split(':')[0] });
// The events themselves, for a log line of your own.
locks.on('waitEnded', ({ name, owner, outcome }) => {
  if (outcome !== 'taken') console.log(`${owner} did not get ${name}: ${outcome}`);
});

await locks.lock('invoices:2026-11').withLock((signal, held) =>
  // Opt-in: the hold's span is the active one, so the spans of the work done under the lock are its children.
  telemetry.inHoldSpan(held, () =>
    tracer.startActiveSpan('send invoices', async (span) => {
      // Another job finds the lock held and does not wait: an acquisition that timed out.
      const attempt = await locks.lock('invoices:2026-11').tryAcquire({ owner: 'another-job' });
      console.log(`another job's tryAcquire: ${attempt === null ? 'null' : 'acquired'}`);
      span.end();
    }),
  ),
);

await reader.forceFlush();
telemetry.stop();
for (const metric of metricExporter
  .getMetrics()
  .flatMap((resource) => resource.scopeMetrics)
  .flatMap((scope) => scope.metrics)) {
  for (const point of metric.dataPoints) {
    const value = typeof point.value === 'number' ? point.value : `${point.value.count} recorded`;
    console.log(`${metric.descriptor.name} (${metric.descriptor.unit}) ${JSON.stringify(point.attributes)}: ${value}`);
  }
}
const spans = spanExporter.getFinishedSpans();
for (const span of spans) {
  const parent = spans.find((other) => other.spanContext().spanId === span.parentSpanContext?.spanId);
  const inside = parent ? `, in ${parent.name}` : '';
  console.log(`span ${span.name} ${JSON.stringify(span.attributes)}, ${span.links.length} link(s)${inside}`);
}

await locks.close();
await redis.quit();

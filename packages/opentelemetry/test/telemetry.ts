import type { Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** What a test reads back: the spans ended so far, and the metrics as of now. */
export interface Telemetry {
  readonly meterProvider: MeterProvider;
  readonly tracerProvider: BasicTracerProvider;
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The spans named `name`, in the order they ended. */
  spansNamed(name: string): ReadableSpan[];
  /** The value of a counter's data point with exactly `attributes` (0 when there is none). */
  sum(metric: string, attributes: Attributes): Promise<number>;
  /** A histogram's data point with exactly `attributes`. */
  histogram(metric: string, attributes: Attributes): Promise<Histogram | undefined>;
  /** The attributes of every data point of `metric`. */
  series(metric: string): Promise<Attributes[]>;
  /** The instrumentation scopes the metrics were recorded by, as `name@version`. */
  meterScopes(): Promise<string[]>;
}

/** An SDK meter and tracer provider over the in-memory exporters, read on demand. */
export function telemetry(): Telemetry {
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when a test flushes it.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const scopeMetrics = async () => {
    metricExporter.reset();
    await reader.forceFlush();
    return metricExporter.getMetrics().flatMap((resource) => resource.scopeMetrics);
  };
  const points = async (metric: string): Promise<DataPoint<unknown>[]> => {
    const scopes = await scopeMetrics();
    return scopes.flatMap((scope) =>
      scope.metrics
        .filter((data) => data.descriptor.name === metric)
        .flatMap((data): DataPoint<unknown>[] => data.dataPoints),
    );
  };
  const point = async (metric: string, attributes: Attributes) =>
    (await points(metric)).find((candidate) => sameAttributes(candidate.attributes, attributes));
  return {
    meterProvider,
    tracerProvider,
    spans: () => spanExporter.getFinishedSpans(),
    spansNamed: (name) => spanExporter.getFinishedSpans().filter((span) => span.name === name),
    sum: async (metric, attributes) => Number((await point(metric, attributes))?.value ?? 0),
    histogram: async (metric, attributes) => (await point(metric, attributes))?.value as Histogram | undefined,
    series: async (metric) => (await points(metric)).map((candidate) => candidate.attributes),
    meterScopes: async () => (await scopeMetrics()).map(({ scope }) => `${scope.name}@${scope.version ?? ''}`),
  };
}

function sameAttributes(a: Attributes, b: Attributes): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** A span's duration in milliseconds. */
export function durationMs(span: ReadableSpan): number {
  return span.duration[0] * 1000 + span.duration[1] / 1e6;
}

import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PrismaInstrumentation } from '@prisma/instrumentation';

/** A reader the test collects on demand. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** One data point of a metric, with its attributes. */
export interface MetricPoint {
  name: string;
  attributes: Record<string, unknown>;
  value: number | Histogram;
}

export interface CollectedTelemetry {
  /** The spans ended so far. */
  spans(): ReadableSpan[];
  /** The current value of every metric data point. */
  metrics(): Promise<MetricPoint[]>;
}

/**
 * Registers OpenTelemetry's global providers as an application's SDK set-up would (async context,
 * a tracer provider exporting to memory, a meter provider, Prisma's instrumentation) for the
 * enclosing `describe` block, and resets them after it. Call it before `useTestApp`.
 */
export function useTelemetry(): CollectedTelemetry {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  let contextManager: AsyncLocalStorageContextManager | undefined;
  let tracerProvider: BasicTracerProvider | undefined;
  let meterProvider: MeterProvider | undefined;
  let prisma: PrismaInstrumentation | undefined;
  beforeAll(() => {
    contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(tracerProvider);
    meterProvider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(meterProvider);
    prisma = new PrismaInstrumentation();
    prisma.setTracerProvider(tracerProvider);
    prisma.enable();
  });
  afterAll(async () => {
    prisma?.disable();
    trace.disable();
    metrics.disable();
    context.disable();
    await tracerProvider?.shutdown();
    await meterProvider?.shutdown();
  });
  return {
    spans: () => exporter.getFinishedSpans(),
    metrics: async () => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => ({
            name: metric.descriptor.name,
            attributes: point.attributes,
            value: point.value,
          })),
        ),
      );
    },
  };
}

/** The span's parent's id. */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';

/** A reader nobody collects: the instruments aggregate as with a real exporter, nothing leaves the process. */
class IdleReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/**
 * `npm run bench -- --tracing`: an OpenTelemetry SDK as an application registers one, before the
 * module starts: async context, every span sampled and recorded (then dropped: no span processor
 * exports), and the metrics aggregated. What the bench then measures is the module's telemetry cost.
 */
export function registerBenchTelemetry(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider());
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }));
}

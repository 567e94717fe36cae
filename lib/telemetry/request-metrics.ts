import { type Counter, createNoopMeter, type Histogram, type MeterProvider, metrics } from '@opentelemetry/api';

import { INSTRUMENTATION_SCOPE, METRICS } from './telemetry.constants.js';

/** The module's instruments on one meter provider. */
export interface RequestInstruments {
  requests: Counter;
  duration: Histogram;
  databaseErrors: Counter;
}

/** Per meter provider, `null` for the API's no-op one: the global provider may be set or reset at any time. */
const instrumentsByProvider = new WeakMap<MeterProvider, RequestInstruments | null>();

/** The instruments of the global meter provider; `undefined` without a metrics SDK, so nothing is measured. */
export function requestInstruments(): RequestInstruments | undefined {
  const provider = metrics.getMeterProvider();
  let instruments = instrumentsByProvider.get(provider);
  if (instruments === undefined) {
    const meter = provider.getMeter(INSTRUMENTATION_SCOPE);
    instruments =
      meter === createNoopMeter()
        ? null
        : {
            requests: meter.createCounter(METRICS.requests, {
              description: 'Requests answered by the module, by interface, model, operation and status.',
              unit: '{request}',
            }),
            duration: meter.createHistogram(METRICS.duration, {
              description: 'Time from the module receiving a request to its answer.',
              unit: 's',
            }),
            databaseErrors: meter.createCounter(METRICS.databaseErrors, {
              description: 'Requests failed by the database, by the error code they were answered with.',
              unit: '{error}',
            }),
          };
    instrumentsByProvider.set(provider, instruments);
  }
  return instruments ?? undefined;
}

import type { AbstractHttpAdapter, HttpAdapterHost } from '@nestjs/core';

/** Nest 12's host announces the adapter with `init$`; Nest 11's has no such event. */
interface AdapterHost {
  httpAdapter?: AbstractHttpAdapter;
  init$?: HttpAdapterHost['init$'];
}

/**
 * Calls `ready` with the application's HTTP adapter as soon as Nest sets it, which is before
 * `app.init()` registers Nest's body parsers and routes. Nest 12: `init$` (it replays). Nest 11:
 * `NestFactory.create` sets the adapter before it creates the providers, so it is there already;
 * a testing module's `createNestApplication` sets it later, through the host's `httpAdapter`
 * setter, which is wrapped on this one instance until then.
 */
export function onHttpAdapter(host: HttpAdapterHost, ready: (adapter: AbstractHttpAdapter) => void): void {
  const adapterHost = host as AdapterHost;
  if (adapterHost.init$) {
    adapterHost.init$.subscribe(() => ready(host.httpAdapter));
    return;
  }
  if (adapterHost.httpAdapter) return ready(adapterHost.httpAdapter);
  const accessor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(host), 'httpAdapter');
  Object.defineProperty(host, 'httpAdapter', {
    configurable: true,
    get: accessor?.get,
    set(adapter: AbstractHttpAdapter) {
      delete adapterHost.httpAdapter;
      adapterHost.httpAdapter = adapter;
      ready(adapter);
    },
  });
}

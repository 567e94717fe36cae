import type { ModuleRef } from '@nestjs/core';

interface ContainerWithConfig {
  applicationConfig?: { getGlobalPrefix(): string };
}

/**
 * The application's global prefix (`app.setGlobalPrefix`), read when a request arrives since it
 * is set after the modules are created. Nest offers modules no public accessor for it: this reads
 * the application configuration the container holds, and falls back to no prefix.
 */
export function globalPrefixOf(moduleRef: ModuleRef): string {
  const container = (moduleRef as unknown as { container?: ContainerWithConfig }).container;
  return container?.applicationConfig?.getGlobalPrefix() ?? '';
}

import type { INestApplication } from '@nestjs/common';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, headless (no browser download: CI installs the `chromium` package). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
}

/** Starts the app on a free loopback port; its origin (`http://127.0.0.1:port`). */
export async function listenOnLoopback(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

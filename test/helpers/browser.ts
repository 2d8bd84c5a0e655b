import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { chromium, Browser } from 'playwright-core';
import type { TestApp } from './app';

// Debian's Chromium, driven by playwright-core, for the tests of pages (the customer page,
// GraphiQL). Its network is closed here: the flags keep it from calling home.
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Whether Chromium is installed; a suite that needs it skips with a message otherwise. */
export function chromiumAvailable(suite: string): boolean {
  const available = fs.existsSync(CHROMIUM);
  if (!available) console.warn(`${suite} skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  return available;
}

/**
 * The app listening on a port of 127.0.0.1 and a browser, for the suite: started in beforeAll,
 * closed in afterAll. Read `origin` and `browser` inside the tests.
 */
export function useBrowser(t: TestApp): { readonly origin: string; readonly browser: Browser } {
  let server: Server | undefined;
  let browser: Browser | undefined;
  let origin = '';
  beforeAll(async () => {
    server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server!.once('listening', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  });
  return {
    get origin() {
      return origin;
    },
    get browser() {
      return browser!;
    },
  };
}

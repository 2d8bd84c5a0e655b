import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { createTenant, useTestApp } from '../helpers/app';

const t = useTestApp();
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) console.warn(`graphql-explorer: ${CHROMIUM} not found; the browser test is skipped (install Debian's chromium or set CHROMIUM_PATH)`);

describe('/graphql in a browser', () => {
  it('serves a page of its own, with no external resource and no inline script; JSON clients still get GraphQL', async () => {
    const page = await request(t.app).get('/graphql').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
    expect(page.text).toContain('<script src="/graphql/explorer.js"></script>');
    expect((await request(t.app).get('/graphql/explorer.js')).headers['content-type']).toMatch(/javascript/);
    expect((await request(t.app).get('/graphql/explorer.css')).status).toBe(200);
    // A GET query of a GraphQL client is not the page.
    const a = await createTenant(t);
    const q = await request(t.app).get('/graphql').query({ query: '{ company { name } }' }).set('Authorization', `Bearer ${a.key}`).set('Accept', 'application/json').set('apollo-require-preflight', 'true');
    expect(q.body.data.company.name).toBe('Acme Plumbing');
  });

  (hasChromium ? it : it.skip)('loads in headless Chromium under the CSP, offline, and runs a query with the key', async () => {
    const a = await createTenant(t);
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await browser.newPage();
      const outside: string[] = [];
      const problems: string[] = [];
      // Offline: any request to another origin is recorded and refused.
      await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : (outside.push(route.request().url()), route.abort())));
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${origin}/graphql`);
      await page.fill('#key', a.key);
      await page.fill('#query', '{ company { id name } }');
      await page.click('#run');
      // Waits for the answer (the page writes "HTTP <status>" when it has one).
      await page.locator('#status', { hasText: /^HTTP \d+/ }).waitFor();
      expect(await page.textContent('#status')).toBe('HTTP 200');
      const result = JSON.parse((await page.textContent('#result')) ?? '');
      expect(result.data.company.name).toBe('Acme Plumbing');
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      server.close();
    }
  });
});

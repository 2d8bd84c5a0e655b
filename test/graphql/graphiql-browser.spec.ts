import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { chromiumAvailable, useBrowser } from '../helpers/browser';
import { createTenant, useTestApp } from '../helpers/app';

// GraphiQL at /graphql in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): every request the page makes is recorded and any to another host refused, the
// CSP's violations are collected, and a query typed with the key shows the company's name.

const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts');
const t = useTestApp();
const available = chromiumAvailable('GraphiQL browser test');

/** The text of a CodeMirror editor of the page (the query or the response). */
const editorText = (page: Page, selector: string) => page.evaluate((s) => (document.querySelector(`${s} .CodeMirror`) as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(), selector);

(available ? describe : describe.skip)('GraphiQL in Chromium', () => {
  const b = useBrowser(t);

  it('loads from this server only, under its CSP, and runs a query typed with the key', async () => {
    const a = await createTenant(t);
    const context = await b.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const requested: Array<{ method: string; url: string; authorization?: string }> = [];
    const outside: string[] = [];
    // Every request of the page, and none leaves this server: another host's is refused.
    await page.route('**/*', (route) => {
      const r = route.request();
      requested.push({ method: r.method(), url: r.url(), authorization: r.headers().authorization });
      if (new URL(r.url()).origin === b.origin) return route.continue();
      outside.push(r.url());
      return route.abort();
    });
    const problems: string[] = [];
    page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // The CSP's refusals, as the page sees them (the console says so too, in other words).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });

    await page.goto(`${b.origin}/graphql`);
    await page.locator('.graphiql-container').waitFor();
    // The key, applied with Enter: GraphiQL then fetches the schema with it.
    await page.fill('#api-key', a.key);
    const introspected = page.waitForResponse((r) => r.url() === `${b.origin}/graphql` && (r.request().postData() ?? '').includes('IntrospectionQuery'));
    await page.press('#api-key', 'Enter');
    expect((await introspected).status()).toBe(200);

    // The query, typed into the editor (its closing braces typed over the ones it inserts).
    await page.click('.graphiql-query-editor .CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('{ company { name } }');
    expect((await editorText(page, '.graphiql-query-editor')).replace(/\s+/g, ' ').trim()).toBe('{ company { name } }');
    await page.click('.graphiql-execute-button');
    await page.waitForFunction(() => (document.querySelector('.graphiql-response .CodeMirror') as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue().includes('"name"'));
    expect(JSON.parse(await editorText(page, '.graphiql-response')).data).toEqual({ company: { name: 'Acme Plumbing' } });

    // The schema explorer lists the query type's fields, from the introspection.
    await page.click('[aria-label="Show Documentation Explorer"]');
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).click();
    await page.locator('.graphiql-doc-explorer-field-name', { hasText: /^company$/ }).first().waitFor();
    // History: the query run is there.
    await page.click('[aria-label="Show History"]');
    await page.locator('.graphiql-history-item', { hasText: 'company' }).first().waitFor();

    // Autocompletion: typing a field's start offers the schema's fields.
    await page.click('.graphiql-query-editor .CodeMirror');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type('{ compa');
    await page.locator('.CodeMirror-hint', { hasText: /^company$/ }).waitFor();

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'graphiql.png') });
    // The key is kept in this browser: a reload finds it and fetches the schema with it at once.
    expect(await page.evaluate(() => localStorage.getItem('field-service-crm:api-key'))).toBe(a.key);
    const again = page.waitForResponse((r) => r.url() === `${b.origin}/graphql` && (r.request().postData() ?? '').includes('IntrospectionQuery'));
    await page.reload();
    expect((await again).status()).toBe(200);
    expect(await page.inputValue('#api-key')).toBe(a.key);
    // Every GraphQL request carried it.
    const graphql = requested.filter((r) => r.method === 'POST');
    expect(graphql.length).toBeGreaterThanOrEqual(3);
    for (const r of graphql) expect(r).toEqual({ method: 'POST', url: `${b.origin}/graphql`, authorization: `Bearer ${a.key}` });
    // The page, its two files, and GraphQL: nothing else, nothing from another host.
    expect(new Set(requested.map((r) => new URL(r.url).pathname))).toEqual(new Set(['/graphql', ...[...(await page.locator('script[src], link[rel=stylesheet]').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? e.getAttribute('href'))))]]));
    expect(outside).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

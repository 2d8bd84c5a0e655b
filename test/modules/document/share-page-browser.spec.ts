import fs from 'node:fs';
import path from 'node:path';
import { chromiumAvailable, useBrowser } from '../../helpers/browser';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeTemplate, tiered } from '../../helpers/estimate-fixtures';

// The customer page in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): keyboard only, at 360 px, and no request to another host.

const ARTIFACTS = path.join(__dirname, '..', '..', '..', 'test-artifacts');
const t = useTestApp();
const available = chromiumAvailable('share-page browser test');

(available ? describe : describe.skip)('customer page in Chromium', () => {
  const b = useBrowser(t);

  it('opens the link, chooses a tier, types a name and accepts with the keyboard', async () => {
    const a = await createTenant(t, { name: 'Ζωή Heating' });
    const customer = await makeCustomer(t, a, { first_name: 'Łukasz', last_name: 'Иван' });
    const template = await makeTemplate(t, a, { ...tiered, tax_rate: 8.25 });
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, selected_tier: 'good' })).body.data;
    const link = new URL((await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url);

    const context = await b.browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${b.origin}${link.pathname}`);
    expect(await page.title()).toContain(est.estimate_number);
    // Fits the phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'share-page-360.png'), fullPage: true });

    // Tab to the tier choice (the radio group is one tab stop), then arrow to "Better".
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id ?? '');
    for (let i = 0; i < 20 && !(await focused()).startsWith('tier-'); i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('tier-good');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('tier-better');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('signer_name');
    await page.keyboard.type('Łukasz Иван');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accept estimate');
    await Promise.all([page.waitForURL(/done=accepted/), page.keyboard.press('Enter')]);
    expect(await page.textContent('[role=status]')).toContain('accepted');
    await page.screenshot({ path: path.join(ARTIFACTS, 'share-page-360-accepted.png'), fullPage: true });

    const got = (await rest(t, a).get(`/estimates/${est.uuid}`)).body.data;
    expect(got).toMatchObject({ status: 'Accepted', selected_tier: 'better', total_amount: 140.18 });
    expect(got.acceptance).toMatchObject({ signer_name: 'Łukasz Иван', selected_tier: 'better', ip: '127.0.0.1' });
    expect(got.acceptance.user_agent).toContain('Chrome');
    // Every request the page made went to this server.
    expect(requested.length).toBeGreaterThan(1);
    for (const u of requested) expect(new URL(u).origin).toBe(b.origin);
    await context.close();
  });
});

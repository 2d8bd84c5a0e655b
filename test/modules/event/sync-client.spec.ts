import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeInvoice, pay } from '../../helpers/billing';

const t = useTestApp();
let server: Server;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-sync-'));
beforeAll(async () => {
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

function runClient(key: string, file: string): Promise<void> {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [path.resolve(__dirname, '../../../examples/sync-client.js'), file, '--once'], { env: { ...process.env, API_URL: url, API_KEY: key } }, (err, _out, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(),
    ),
  );
}

describe('examples/sync-client.js', () => {
  it('bootstraps a mirror of the company, then follows the feed (updates, deletes, derived changes)', async () => {
    const a = await createTenant(t);
    const other = await createTenant(t, { name: 'Other' });
    await makeCustomer(t, other);
    const inv = await makeInvoice(t, a);
    const file = path.join(dir, 'mirror.json');
    await runClient(a.key, file);
    let mirror = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(mirror.records.invoice)).toEqual([inv.uuid]);
    expect(Object.keys(mirror.records.customer)).toEqual([inv.customer_uuid]);

    await pay(t, a, inv.uuid, 100);
    const c2 = await makeCustomer(t, a, { first_name: 'New' });
    await rest(t, a).delete(`/customers/${c2.uuid}`);
    await runClient(a.key, file);
    mirror = JSON.parse(fs.readFileSync(file, 'utf8'));
    const invoiceNow = (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data;
    expect(mirror.records.invoice[inv.uuid].status).toBe('Paid');
    expect(mirror.records.invoice[inv.uuid].updated_at).toBe(invoiceNow.updated_at);
    expect(Object.keys(mirror.records.payment)).toHaveLength(1);
    expect(mirror.records.customer[c2.uuid].deleted_at).toMatch(/Z$/);
    expect(Object.keys(mirror.records.customer)).toHaveLength(2);
  });
});

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { createTenant, rest, useTestApp } from '../../helpers/app';

// With SMTP_URL, messages go to that server: a local smtp-server that accepts or refuses.
const received: Buffer[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onRcptTo(address, _session, cb) {
    if (address.address.startsWith('refused')) return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    cb();
  },
  onData(stream, _session, cb) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(Buffer.concat(chunks));
      cb();
    });
  },
});
const env: Record<string, string> = {};
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
const t = useTestApp(env);

describe('sending through SMTP_URL', () => {
  it('delivers to the server; a refusal marks the message failed with the error', async () => {
    const a = await createTenant(t);
    const customer = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).body.data;
    const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Leak', estimated_amount: 10 })).body.data;
    const inv = (await rest(t, a).post(`/jobs/${job.uuid}/invoice`)).body.data;
    const ok = await rest(t, a).post(`/invoices/${inv.uuid}/send`);
    expect(ok.body.data).toMatchObject({ status: 'sent', error: null });
    expect(received).toHaveLength(1);
    const mail = await simpleParser(received[0]);
    expect(mail.attachments[0].contentType).toBe('application/pdf');
    const refused = await rest(t, a).post(`/invoices/${inv.uuid}/send`, { to: 'refused@example.com' });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ to: 'refused@example.com', status: 'failed', sent_at: null });
    expect(refused.body.data.error).toContain('Mailbox unavailable');
    expect(received).toHaveLength(1);
    const history = (await rest(t, a).get(`/invoices/${inv.uuid}/emails`)).body.data.emails;
    expect(history.map((e: { status: string }) => e.status)).toEqual(['failed', 'sent']);
    expect(history[0].error).toContain('550');
  });
});

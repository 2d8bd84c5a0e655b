import { spawn } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { until } from '../../helpers/webhook-receiver';

// examples/webhook-receiver.js (docs/webhooks.md) accepts a signed delivery and refuses a forged one.
it('the example receiver verifies deliveries', async () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const proc = spawn(process.execPath, [path.resolve(__dirname, '../../../examples/webhook-receiver.js')], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' } });
  let out = '';
  proc.stdout.on('data', (d) => (out += String(d)));
  try {
    const port = Number((await until(() => /listening on (\d+)/.exec(out), 'the receiver'))[1]);
    const body = JSON.stringify({ id: 'evt_1', type: 'customer.created', data: { object: { uuid: 'u1' } } });
    const at = new Date();
    const post = (signature: string) =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature },
      });
    expect((await post(new Webhook(secret).sign('evt_1', at, body))).status).toBe(204);
    await until(() => out.includes('customer.created evt_1 u1'), 'the handled event');
    const other = new Webhook(`whsec_${Buffer.alloc(32, 8).toString('base64')}`);
    expect((await post(other.sign('evt_1', at, body))).status).toBe(400);
  } finally {
    proc.kill();
  }
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { signatures } from '../../../src/modules/webhook/webhook.delivery';

// The worker signs with node:crypto (src/modules/webhook/webhook.delivery.ts); the headers must be
// the ones the standardwebhooks package writes, and verify with it, for any id, time and body,
// with and without the old secret of a rotation window.

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

it('signs as standardwebhooks does, and its verify accepts the header', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 0, max: 4_000_000_000 }), fc.boolean(), (id, body, seconds, rotating) => {
      const d = { event_id: id, body, secret: secret(), old_secret: rotating ? secret() : null };
      const at = new Date(seconds * 1000 + 123);
      const expected = [d.secret, ...(d.old_secret ? [d.old_secret] : [])].map((s) => new Webhook(s).sign(id, at, body)).join(' ');
      expect(signatures(d, at)).toBe(expected);
    }),
    { numRuns: 500 },
  );
  const d = { event_id: 'evt_1', body: '{"a":"é"}', secret: secret(), old_secret: secret() };
  const now = new Date();
  const headers = { 'webhook-id': d.event_id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signatures(d, now) };
  expect(new Webhook(d.old_secret).verify(d.body, headers)).toEqual({ a: 'é' });
  expect(new Webhook(d.secret).verify(d.body, headers)).toEqual({ a: 'é' });
  expect(() => new Webhook(secret()).verify(d.body, headers)).toThrow();
});

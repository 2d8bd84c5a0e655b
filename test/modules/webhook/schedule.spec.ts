import { nextDelay, retryAfter, RETRY_DELAYS_S, type Outcome } from '../../../src/modules/webhook/webhook.delivery';

// The retry schedule (docs/webhooks.md): pure logic.
const failed: Outcome = { statusCode: 500, error: 'HTTP 500', excerpt: null, durationMs: 1, retryAfterS: null };

describe('webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, each ±10%, then gives up', () => {
    expect(RETRY_DELAYS_S).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]);
    for (let attempt = 1; attempt <= 9; attempt++) {
      for (let i = 0; i < 200; i++) {
        const d = nextDelay(attempt, failed, 1)!;
        expect(d).toBeGreaterThanOrEqual(RETRY_DELAYS_S[attempt - 1] * 0.9);
        expect(d).toBeLessThanOrEqual(RETRY_DELAYS_S[attempt - 1] * 1.1);
      }
    }
    expect(nextDelay(10, failed, 1)).toBeNull();
  });

  it('WEBHOOK_RETRY_SCALE multiplies every delay, Retry-After included', () => {
    const d = nextDelay(2, failed, 0.001)!;
    expect(d).toBeGreaterThanOrEqual(0.27);
    expect(d).toBeLessThanOrEqual(0.33);
    const r = nextDelay(1, { ...failed, statusCode: 429, retryAfterS: 600 }, 0.5)!;
    expect(r).toBeGreaterThanOrEqual(270);
    expect(r).toBeLessThanOrEqual(330);
  });

  it('reads Retry-After as seconds or an HTTP date, at most 24 h', () => {
    expect(retryAfter('120')).toBe(120);
    expect(retryAfter('999999')).toBe(86_400);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(retryAfter(inAMinute)).toBeGreaterThan(50);
    expect(retryAfter(inAMinute)).toBeLessThanOrEqual(60);
    expect(retryAfter('soon')).toBeNull();
    expect(retryAfter(undefined)).toBeNull();
  });
});

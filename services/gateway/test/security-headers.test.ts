import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayFixture, type Answer, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 11, Medium 4: security headers on every gateway answer (the SPA, its own API, forwarded
 * routes, errors). The browser side (no violation on the landing page or Training Videos) is
 * e2e/security-headers.e2e.test.ts; Stripe's origins are checked here, in the header itself.
 */

const BOOKING_URL = 'https://calendly.example/warmline/intro?month=2026-11';
const TRAINING_VIDEOS = 'One | https://videos.example/embed/1; Two | https://player.example.net/video/2';

let dev: GatewayFixture;
let production: GatewayFixture;

beforeAll(async () => {
  dev = await startGatewayFixture({ env: { BOOKING_URL, TRAINING_VIDEOS } });
  production = await startGatewayFixture({ env: { NODE_ENV: 'production', BOOKING_URL, TRAINING_VIDEOS } });
});

afterAll(async () => {
  await dev?.cleanup();
  await production?.cleanup();
});

/** The CSP as directive → sources. */
function csp(answer: Answer): Map<string, string[]> {
  const header = answer.headers.get('content-security-policy');
  expect(header, 'no Content-Security-Policy header').toBeTruthy();
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('security headers', () => {
  it.each([
    ['the SPA', 'GET', '/'],
    ['a deep link of the SPA', 'GET', '/dashboard'],
    ["the gateway's own API", 'GET', '/api/site-config'],
    ['an unknown API path (404)', 'GET', '/api/nothing-here'],
    ['a refused write (403)', 'POST', '/api/login'],
    ['liveness', 'GET', '/healthz'],
  ])('when %s is asked for, then the answer carries the CSP, nosniff, a Referrer-Policy and refuses framing', async (_what, method, path) => {
    const answer = await dev.browser().request(method, path, method === 'POST' ? { body: 'x', headers: { 'content-type': 'text/plain' } } : {});

    const policy = csp(answer);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
  });

  it("when the policy is read, then scripts come only from the site itself and Stripe.js, with no inline script or eval", async () => {
    const policy = csp(await dev.browser().get('/'));

    expect(policy.get('script-src')?.sort()).toEqual(["'self'", 'https://*.js.stripe.com', 'https://js.stripe.com'].sort());
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    // Issue 16: inline styles only by the page's nonce (first-load.test.ts).
    expect(policy.get('style-src')?.[0]).toBe("'self'");
    expect(policy.get('style-src')?.some((source) => source.startsWith("'nonce-"))).toBe(true);
    expect(policy.get('style-src')).not.toContain("'unsafe-inline'");
  });

  it("when the policy is read, then frames may come only from Stripe's origins, the booking widget's and the training videos' hosts", async () => {
    const policy = csp(await dev.browser().get('/'));

    expect(policy.get('frame-src')?.sort()).toEqual(
      [
        'https://js.stripe.com',
        'https://*.js.stripe.com',
        'https://hooks.stripe.com',
        'https://calendly.example',
        'https://videos.example',
        'https://player.example.net',
      ].sort(),
    );
  });

  it('when not in production, then there is no HSTS (local http would be pinned to https)', async () => {
    expect((await dev.browser().get('/')).headers.get('strict-transport-security')).toBeNull();
  });

  it('when in production, then every answer carries HSTS for a year', async () => {
    for (const path of ['/', '/api/site-config', '/api/nothing-here']) {
      expect((await production.browser().get(path)).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_BODY_LIMIT_BYTES, DEFAULT_BODY_LIMIT_BYTES } from '@warmline/contracts';
import { createHttpApp, serve } from '../src/http/app';
import { IDENTITY_HEADER, identityCheck } from '../src/http/identity';
import { ShutdownStack } from '../src/lifecycle';
import { createLogger } from '../src/log';
import { signTestIdentity, TEST_KEYS } from '../src/testing/index';

/**
 * Issue 11, Medium 9 in the HTTP kit every service uses: JSON bodies up to 100 KB, unless the
 * route manifest gives the route its own limit (the bulk purchase: 2 MB, which the catalog
 * must then accept too).
 */

const log = createLogger('body-limits-test', 'silent');
const stops = new ShutdownStack(log, 'the test server');
let base: string;

beforeAll(async () => {
  const app = createHttpApp({
    service: 'body-limits-test',
    log,
    identity: identityCheck(TEST_KEYS, 'kit-test'),
    mount: (a) => {
      a.post('/api/widgets', (req, res) => res.json({ keys: Object.keys(req.body as object) }));
      a.post('/api/bulk-purchase-leads', (req, res) => res.json({ keys: Object.keys(req.body as object) }));
    },
  });
  base = await serve(app, 0, stops, '127.0.0.1');
});

afterAll(() => stops.stop());

const post = (path: string, bytes: number) =>
  fetch(base + path, {
    method: 'POST',
    body: JSON.stringify({ pad: 'x'.repeat(bytes - 20) }),
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signTestIdentity('kit-test', { userId: '3f0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ann', isAdmin: false }),
    },
  });

describe('JSON body limits in the HTTP kit', () => {
  it('when a route without its own limit gets more than 100 KB, then it answers 413', async () => {
    const answer = await post('/api/widgets', DEFAULT_BODY_LIMIT_BYTES + 1000);

    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ error: 'Request body is too large' });
    expect((await post('/api/widgets', DEFAULT_BODY_LIMIT_BYTES - 1000)).status).toBe(200);
  });

  it("when the manifest's bulk route gets 1.5 MB, then it is read, and over 2 MB it is 413", async () => {
    expect((await post('/api/bulk-purchase-leads', 1.5 * 1024 * 1024)).status).toBe(200);
    expect((await post('/api/bulk-purchase-leads', BULK_BODY_LIMIT_BYTES + 1000)).status).toBe(413);
  });
});

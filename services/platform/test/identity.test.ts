import { generateKeyPairSync, sign } from 'node:crypto';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptServiceCallers,
  IDENTITY_HEADER,
  IDENTITY_TTL_SECONDS,
  identityCheck,
  requireUserIdentity,
  SERVICE_CALL_HEADER,
  serviceSigner,
  signIdentity,
  signServiceCall,
  verifyIdentity,
  verifyServiceCall,
} from '../src/http/identity';
import { closeServer, createHttpApp, listen } from '../src/http/app';
import { createLogger } from '../src/log';
import { privateKeyOf } from '../src/keys';
import { TEST_KEYS } from '../src/testing/index';

const gatewayKey = privateKeyOf(TEST_KEYS.IDENTITY_PRIVATE_KEY);
const ordersCheck = identityCheck(TEST_KEYS, 'orders');
const catalogCheck = identityCheck(TEST_KEYS, 'catalog');
const catalogSigner = serviceSigner('catalog', TEST_KEYS.CATALOG_SERVICE_KEY);
const transfersSigner = serviceSigner('transfers', TEST_KEYS.TRANSFERS_SERVICE_KEY);
const ann = { userId: '3f0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ann', isAdmin: false };

/** A token signed like an identity, with any claims and any key: what a forger can make. */
function forged(claims: Record<string, unknown>, key = gatewayKey, kind = 'warmline-identity'): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(null, Buffer.from(`${kind}.${payload}`), key).toString('base64url')}`;
}

describe('forwarded identity', () => {
  it('when the gateway signs an identity for orders, then orders reads it back', () => {
    expect(verifyIdentity(ordersCheck, signIdentity(gatewayKey, 'orders', ann))).toEqual(ann);
  });

  it('when an identity is signed for the catalog, then orders refuses it', () => {
    const forCatalog = signIdentity(gatewayKey, 'catalog', ann);
    expect(verifyIdentity(catalogCheck, forCatalog)).toEqual(ann);
    expect(verifyIdentity(ordersCheck, forCatalog)).toBeNull();
  });

  it('when a service signs a user identity with its own key, then no service accepts it: a service cannot sign an identity', () => {
    const catalogKey = privateKeyOf(TEST_KEYS.CATALOG_SERVICE_KEY);
    const admin = { userId: ann.userId, username: 'ann', isAdmin: true };
    expect(verifyIdentity(ordersCheck, signIdentity(catalogKey, 'orders', admin))).toBeNull();
    expect(verifyIdentity(ordersCheck, forged({ ...admin, aud: 'orders', exp: 9_999_999_999 }, catalogKey))).toBeNull();
    // Its own credential is a service call, never an identity, whatever it claims.
    expect(verifyIdentity(ordersCheck, signServiceCall(catalogSigner, 'orders', admin))).toBeNull();
    expect(verifyIdentity(ordersCheck, forged({ ...admin, aud: 'orders', exp: 9_999_999_999 }, catalogKey, 'warmline-service-call'))).toBeNull();
  });

  it('when a visitor has no session, then the anonymous identity travels with userId null and the client address', () => {
    const anonymous = { userId: null, username: null, isAdmin: false };
    expect(verifyIdentity(ordersCheck, signIdentity(gatewayKey, 'orders', anonymous))).toEqual(anonymous);
    expect(verifyIdentity(ordersCheck, signIdentity(gatewayKey, 'orders', { ...anonymous, clientIp: '203.0.113.9' }))).toEqual({ ...anonymous, clientIp: '203.0.113.9' });
  });

  it('when a username is neither text nor null, then it is refused even when properly signed', () => {
    expect(verifyIdentity(ordersCheck, forged({ ...ann, username: 42, aud: 'orders', exp: 9_999_999_999 }))).toBeNull();
    expect(verifyIdentity(ordersCheck, forged({ ...ann, aud: 'orders', exp: 9_999_999_999 }))).toEqual(ann);
  });

  it('when a client forges or alters the header, then it is refused', () => {
    const token = signIdentity(gatewayKey, 'orders', ann);
    const [payload, signature] = token.split('.');
    const promoted = Buffer.from(JSON.stringify({ ...ann, isAdmin: true, aud: 'orders', exp: 9_999_999_999 })).toString('base64url');
    expect(verifyIdentity(ordersCheck, `${promoted}.${signature}`)).toBeNull();
    const stranger = generateKeyPairSync('ed25519').privateKey;
    expect(verifyIdentity(ordersCheck, signIdentity(stranger, 'orders', ann))).toBeNull();
    expect(verifyIdentity(ordersCheck, `${payload}`)).toBeNull();
    expect(verifyIdentity(ordersCheck, 'garbage')).toBeNull();
    expect(verifyIdentity(ordersCheck, undefined)).toBeNull();
  });

  it('when the identity is older than its lifetime, then it is refused', () => {
    const signedAt = Date.now();
    const token = signIdentity(gatewayKey, 'orders', ann, signedAt);
    expect(verifyIdentity(ordersCheck, token, signedAt + (IDENTITY_TTL_SECONDS - 1) * 1000)).toEqual(ann);
    expect(verifyIdentity(ordersCheck, token, signedAt + (IDENTITY_TTL_SECONDS + 1) * 1000)).toBeNull();
  });
});

describe('service calls', () => {
  it('when the catalog calls orders with its own key, then orders knows the caller and the user it acts for, never an admin', () => {
    expect(verifyServiceCall(ordersCheck, signServiceCall(catalogSigner, 'orders', { ...ann, isAdmin: true } as typeof ann))).toEqual({
      caller: 'catalog',
      actingFor: { userId: ann.userId, username: 'ann' },
    });
    expect(verifyServiceCall(ordersCheck, signServiceCall(catalogSigner, 'orders'))).toEqual({ caller: 'catalog', actingFor: null });
  });

  it('when a call is for another service, claims another caller, or is signed by an unknown key, then it is refused', () => {
    expect(verifyServiceCall(ordersCheck, signServiceCall(catalogSigner, 'gateway'))).toBeNull();
    const posing = { service: 'transfers' as const, key: catalogSigner.key };
    expect(verifyServiceCall(ordersCheck, signServiceCall(posing, 'orders'))).toBeNull();
    const stranger = { service: 'catalog' as const, key: generateKeyPairSync('ed25519').privateKey };
    expect(verifyServiceCall(ordersCheck, signServiceCall(stranger, 'orders'))).toBeNull();
    // The gateway's own key makes identities, not service calls.
    expect(verifyServiceCall(ordersCheck, signServiceCall({ service: 'catalog', key: gatewayKey }, 'orders'))).toBeNull();
    const signedAt = Date.now();
    expect(verifyServiceCall(ordersCheck, signServiceCall(catalogSigner, 'orders', null, signedAt), signedAt + (IDENTITY_TTL_SECONDS + 1) * 1000)).toBeNull();
  });
});

describe('routes that services call', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({
      service: 'orders',
      log: createLogger('identity-test', 'silent'),
      identity: ordersCheck,
      mount: (a) => {
        a.get('/api/internal/for-catalog', acceptServiceCallers('catalog'), requireUserIdentity, (req, res) => res.json({ identity: req.identity }));
        a.get('/api/internal/for-users', requireUserIdentity, (req, res) => res.json({ identity: req.identity }));
        a.get('/api/public', (req, res) => res.json({ identity: req.identity }));
      },
    });
    server = await listen(app, 0, '127.0.0.1');
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await closeServer(server);
  });

  const get = async (path: string, headers: Record<string, string>) => {
    const response = await fetch(base + path, { headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('when the named caller calls, then the route acts for the user the call names, as no admin', async () => {
    const answer = await get('/api/internal/for-catalog', { [SERVICE_CALL_HEADER]: signServiceCall(catalogSigner, 'orders', { ...ann, isAdmin: true } as typeof ann) });
    expect(answer).toEqual({ status: 200, body: { identity: ann } });
  });

  it('when a service the route does not list calls it, then 403', async () => {
    const answer = await get('/api/internal/for-catalog', { [SERVICE_CALL_HEADER]: signServiceCall(transfersSigner, 'orders', ann) });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toContain('transfers');
  });

  it('when a service calls a route that names no caller, or a public route, then 403', async () => {
    expect((await get('/api/internal/for-users', { [SERVICE_CALL_HEADER]: signServiceCall(catalogSigner, 'orders', ann) })).status).toBe(403);
    expect((await get('/api/public', { [SERVICE_CALL_HEADER]: signServiceCall(catalogSigner, 'orders', ann) })).status).toBe(403);
  });

  it("when a user's identity from the gateway reaches a route for services, then 403", async () => {
    expect((await get('/api/internal/for-catalog', { [IDENTITY_HEADER]: signIdentity(gatewayKey, 'orders', ann) })).status).toBe(403);
  });

  it('when a service call is forged, then 401', async () => {
    const stranger = { service: 'catalog' as const, key: generateKeyPairSync('ed25519').privateKey };
    expect((await get('/api/internal/for-catalog', { [SERVICE_CALL_HEADER]: signServiceCall(stranger, 'orders', ann) })).status).toBe(401);
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IDENTITY_TTL_SECONDS, signIdentity, verifyIdentity } from '../src/http/identity';

const secret = 'a-secret-that-is-long-enough-0123456789';
const ann = { userId: '3f0c1b9e-7a59-4c4f-9a6c-2b1d5e8f0a11', username: 'ann', isAdmin: false };

describe('forwarded identity', () => {
  it('when the gateway signs an identity, then an internal service reads it back', () => {
    expect(verifyIdentity(secret, signIdentity(secret, ann))).toEqual(ann);
  });

  it('when a visitor has no session, then the anonymous identity travels with userId null', () => {
    const anonymous = { userId: null, username: null, isAdmin: false };
    expect(verifyIdentity(secret, signIdentity(secret, anonymous))).toEqual(anonymous);
  });

  it('when a service acts for a user whose username it does not know (orders asking for a buyer), then the user id still travels', () => {
    const buyer = { userId: ann.userId, username: null, isAdmin: false };
    expect(verifyIdentity(secret, signIdentity(secret, buyer))).toEqual(buyer);
    // A username that is neither text nor null is still refused, even when properly signed.
    const payload = Buffer.from(JSON.stringify({ userId: ann.userId, username: 42, isAdmin: false, exp: Math.floor(Date.now() / 1000) + 10 })).toString('base64url');
    expect(verifyIdentity(secret, `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`)).toBeNull();
    const textual = Buffer.from(JSON.stringify({ userId: ann.userId, username: 'ann', isAdmin: false, exp: Math.floor(Date.now() / 1000) + 10 })).toString('base64url');
    expect(verifyIdentity(secret, `${textual}.${createHmac('sha256', secret).update(textual).digest('base64url')}`)).toEqual(ann);
  });

  it('when a client forges or alters the header, then it is refused', () => {
    const token = signIdentity(secret, ann);
    const [payload] = token.split('.');
    const promoted = Buffer.from(JSON.stringify({ ...ann, isAdmin: true, exp: 9_999_999_999 })).toString('base64url');
    expect(verifyIdentity(secret, `${promoted}.${token.split('.')[1]}`)).toBeNull();
    expect(verifyIdentity('another-secret-that-is-long-enough-0000', token)).toBeNull();
    expect(verifyIdentity(secret, `${payload}`)).toBeNull();
    expect(verifyIdentity(secret, 'garbage')).toBeNull();
    expect(verifyIdentity(secret, undefined)).toBeNull();
  });

  it('when the identity is older than its lifetime, then it is refused', () => {
    const signedAt = Date.now();
    const token = signIdentity(secret, ann, signedAt);
    expect(verifyIdentity(secret, token, signedAt + (IDENTITY_TTL_SECONDS - 1) * 1000)).toEqual(ann);
    expect(verifyIdentity(secret, token, signedAt + (IDENTITY_TTL_SECONDS + 1) * 1000)).toBeNull();
  });
});

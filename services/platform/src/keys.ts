import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * The Ed25519 keys of identities and service calls (docs/adr/0042), as they travel in the
 * environment: base64 of the DER encoding (SPKI for a public key, PKCS#8 for a private one),
 * which `make env` (infra/scripts/env.sh) writes.
 */

/** The public key in `text`; throws when it is not an Ed25519 public key. */
export function publicKeyOf(text: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return key;
}

/** The private key in `text`; throws when it is not an Ed25519 private key. */
export function privateKeyOf(text: string): KeyObject {
  const key = createPrivateKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`not an Ed25519 key (${key.asymmetricKeyType})`);
  return key;
}

/**
 * SERVICE_PUBLIC_KEYS: `name:key` pairs separated by commas, e.g.
 * `catalog:MCowBQ…,transfers:MCowBQ…` — the services that may call this one, each by its own key.
 */
export function servicePublicKeysOf(text: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const entry of text.split(',').map((e) => e.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    const name = entry.slice(0, colon);
    if (colon < 1 || !/^[a-z]+$/.test(name)) throw new Error(`"${entry.slice(0, 20)}…" is not name:key`);
    if (keys.has(name)) throw new Error(`${name} is listed twice`);
    keys.set(name, publicKeyOf(entry.slice(colon + 1)));
  }
  return keys;
}

/** True when `parse` accepts the text (for zod refinements). */
export function parses(parse: (text: string) => unknown): (text: string) => boolean {
  return (text) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };
}

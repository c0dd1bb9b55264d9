import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 30-second steps,
 * 6 digits, what every authenticator app speaks by default. Pure functions, so the tests
 * compute the same codes an app would.
 */

const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
/** One step either side: a phone clock a little off, or a code typed as it rolled over. */
const TOTP_WINDOW_STEPS = 1;

export function totpStep(nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of `step` for `secret` (RFC 4226 §5.3 dynamic truncation). */
export function totpCode(secret: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** TOTP_DIGITS;
  return String(binary).padStart(TOTP_DIGITS, '0');
}

/**
 * The step `code` belongs to, within the window around now and later than `lastUsedStep`,
 * or null. A code already used (or one older than it) never matches again.
 */
export function matchTotp(secret: Buffer, code: string, lastUsedStep: number | null, nowMs: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(nowMs);
  let matched: number | null = null;
  // Every candidate is compared (no early exit), in constant time.
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step++) {
    const same = timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(code));
    if (same && (lastUsedStep === null || step > lastUsedStep) && matched === null) matched = step;
  }
  return matched;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth:// secrets are written. */
export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** 160 bits, the HMAC-SHA1 key length RFC 4226 recommends. */
export function newTotpSecret(): Buffer {
  return randomBytes(20);
}

/** The enrolment link an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUrl(secret: Buffer, account: string, issuer = 'WarmLine'): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: base32(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/* -------------------------------------------------------- secrets at rest ---------- */

/**
 * The key that encrypts TOTP secrets: TOTP_ENCRYPTION_KEY when set (32 bytes, hex or
 * base64), otherwise derived from SESSION_SECRET with HKDF, so the local demo needs no
 * extra setting. A different purpose string keeps the derived key unrelated to the cookie
 * signature. Changing the key (or SESSION_SECRET without a key) makes enrolled secrets
 * unreadable: those users sign in with a recovery code and enrol again.
 */
export function totpEncryptionKey(config: { TOTP_ENCRYPTION_KEY?: string | undefined; SESSION_SECRET: string }): Buffer {
  if (config.TOTP_ENCRYPTION_KEY) return parseKey(config.TOTP_ENCRYPTION_KEY);
  return Buffer.from(hkdfSync('sha256', config.SESSION_SECRET, 'warmline', 'totp-secret-encryption', 32));
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** AES-256-GCM: `v1.` + base64url(iv ‖ tag ‖ ciphertext). The user id is bound as associated data. */
export function encryptSecret(key: Buffer, secret: Buffer, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(userId));
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

/** The secret, or null when it cannot be read with this key (a changed key, a copied row). */
export function decryptSecret(key: Buffer, stored: string, userId: string): Buffer | null {
  if (!stored.startsWith('v1.')) return null;
  const raw = Buffer.from(stored.slice(3), 'base64url');
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  } catch {
    return null;
  }
}

/* -------------------------------------------------------- recovery codes ----------- */

const RECOVERY_CODE_COUNT = 10;

/** 80 random bits as 'abcd-efgh-ijkl-mnop' (base32, lower case): easy to copy, not to guess. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    base32(randomBytes(10)).toLowerCase().match(/.{4}/g)!.join('-'),
  );
}

/** What a typed recovery code is compared as: no case, dashes or spaces. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** Only this is stored; 80 random bits need no slow hash. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}

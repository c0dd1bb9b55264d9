import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, baseEnv, parseConfig } from '../src/config';

const goodKey = 'MCowBQYDK2VwAyEAv7wHiDNhsmtUHFzgwzN76iIlkZkuorFcPmptIu6DiS4=';

describe('service configuration', () => {
  it('when every variable is valid, then defaults fill the rest', () => {
    const config = parseConfig(baseEnv, { IDENTITY_PUBLIC_KEY: goodKey });
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/warmline');
    expect(config.AMQP_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
  });

  it('when a required variable is missing, then the error is one line naming it', () => {
    let error: unknown;
    try {
      parseConfig(baseEnv, {});
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toBe('Invalid configuration: IDENTITY_PUBLIC_KEY: is required but not set');
    expect(message).not.toContain('\n');
  });

  it('when several variables are bad, then the one line names each of them', () => {
    const shape = { ...baseEnv, PORT: z.coerce.number().int().min(0).max(65535) };
    expect(() => parseConfig(shape, { IDENTITY_PUBLIC_KEY: 'x'.repeat(32), DATABASE_URL: 'not a url', PORT: '99999' })).toThrow(
      /^Invalid configuration: DATABASE_URL: .+; IDENTITY_PUBLIC_KEY: must be an Ed25519 public key, base64 SPKI DER \(make env writes one\); PORT: .+$/,
    );
  });
});

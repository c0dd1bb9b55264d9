import { z } from 'zod';
import { baseEnv, ConfigError, privateKeyEnv, servicePublicKeysEnv } from '@warmline/platform/config';
import { businessTimezoneSchema, paymentProviderSchema, type PaymentProviderName } from '@warmline/contracts';

/** An unset or empty variable means "not configured" (docker-compose passes '' for `${X:-}`). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const ordersEnv = {
  ...baseEnv,
  ORDERS_PORT: z.coerce.number().int().min(0).max(65535).default(3102),
  /** The orders service's own Ed25519 key, for its calls to the gateway; it also signs order claim tokens (docs/adr/0042). */
  ORDERS_SERVICE_KEY: privateKeyEnv,
  /** Public keys of the services that call this one, `name:key,…` (docs/adr/0042). */
  SERVICE_PUBLIC_KEYS: servicePublicKeysEnv,
  /** The business's clock: revenue this month and per day are counted in it (issue 12). */
  BUSINESS_TIMEZONE: businessTimezoneSchema,
  /**
   * 'sandbox' (cards confirmed by this service, Stripe's test numbers) or 'stripe'. Unset:
   * stripe when STRIPE_SECRET_KEY is set, else sandbox. With NODE_ENV=production the sandbox
   * is refused unless ALLOW_TEST_PAYMENTS=true, so fake payments are never taken by mistake.
   */
  PAYMENT_PROVIDER: optional(paymentProviderSchema),
  /**
   * 'true' lets production take the sandbox's test payments (a demo or staging deployment);
   * set on purpose only: `make env` never writes it and docker-compose does not set it.
   */
  ALLOW_TEST_PAYMENTS: optional(z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }))
    .transform((v) => v === 'true'),
  STRIPE_SECRET_KEY: optional(z.string().regex(/^(sk|rk)_/, "must start with 'sk_' (or 'rk_')")),
  STRIPE_PUBLISHABLE_KEY: optional(z.string().regex(/^pk_/, "must start with 'pk_'")),
  /** Verifies `POST /api/webhooks/stripe`; without it that route answers 503. */
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_/, "must start with 'whsec_'")),
  /** Where the Stripe SDK sends API calls (tests point it at a local stand-in). */
  STRIPE_API_BASE: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })),
  /**
   * The gateway's internal listener (GATEWAY_INTERNAL_PORT, not the public port): owner of
   * users, asked for a buyer's per-transfer price.
   */
  GATEWAY_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('http://127.0.0.1:3100'),
};

export type OrdersConfig = z.infer<z.ZodObject<typeof ordersEnv>>;

/**
 * The payment provider this configuration asks for; throws a one-line ConfigError when the
 * combination cannot work (stripe without keys, the sandbox in production without
 * ALLOW_TEST_PAYMENTS=true).
 */
export function resolvePaymentProvider(config: OrdersConfig): PaymentProviderName {
  const provider = config.PAYMENT_PROVIDER ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox');
  if (provider === 'stripe') {
    const needed = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY'] as const;
    const missing: string[] = needed.filter((name) => !config[name]);
    // In production an order could never be marked paid without the webhook.
    if (config.NODE_ENV === 'production' && !config.STRIPE_WEBHOOK_SECRET) missing.push('STRIPE_WEBHOOK_SECRET');
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid configuration: the stripe payment provider needs ${missing.join(', ')}`,
      );
    }
  }
  if (provider === 'sandbox' && config.NODE_ENV === 'production' && !config.ALLOW_TEST_PAYMENTS) {
    throw new ConfigError(
      config.PAYMENT_PROVIDER === 'sandbox'
        ? 'Invalid configuration: PAYMENT_PROVIDER: the sandbox takes test payments only; with NODE_ENV=production it also needs ALLOW_TEST_PAYMENTS=true, set on purpose'
        : 'Invalid configuration: PAYMENT_PROVIDER: no real payments are configured in production; set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY, or PAYMENT_PROVIDER=sandbox with ALLOW_TEST_PAYMENTS=true to take test payments on purpose',
    );
  }
  return provider;
}

import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { AppError } from '@warmline/platform/errors';
import type { PaymentConfigResponse, PaymentProviderName } from '@warmline/contracts';
import { resolvePaymentProvider, type OrdersConfig } from '../config';

/**
 * Who takes the card (ARCHITECTURE §4). The orders service creates one intent per order
 * through the provider; the buyer's browser confirms it with the client secret; the outcome
 * comes back as a sandbox confirmation or a Stripe webhook, and both go through
 * `recordPaymentSucceeded` / `recordPaymentFailed` in payments.ts.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** What `GET /api/config` tells the SPA, so it shows the matching card form. */
  publicConfig(): PaymentConfigResponse;
  createIntent(request: CreateIntentRequest): Promise<CreatedIntent>;
  /** Gives back `amountCents` of a succeeded intent; the same idempotency key refunds once. */
  refund(request: RefundRequest): Promise<{ id: string }>;
}

interface RefundRequest {
  intentId: string;
  amountCents: number;
  idempotencyKey: string;
  /** Shown in the provider's dashboard beside the refund. */
  metadata: Record<string, string>;
}

interface CreateIntentRequest {
  orderId: string;
  amountCents: number;
  currency: 'usd';
  description: string;
  /** Retrying with the same key never creates a second intent at the provider. */
  idempotencyKey: string;
  /** Shown in the provider's dashboard beside the payment; strings only (Stripe's rule). */
  metadata: Record<string, string>;
  receiptEmail?: string;
}

interface CreatedIntent {
  id: string;
  clientSecret: string;
}

/**
 * The sandbox: this service is the provider. Intent ids and client secrets look like
 * Stripe's ('pi_…', 'pi_…_secret_…') so the SPA handles both the same way.
 */
export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    publicConfig: () => ({ paymentProvider: 'sandbox' }),
    async createIntent() {
      const id = `pi_sandbox_${token(18)}`;
      return { id, clientSecret: `${id}_secret_${token(24)}` };
    },
    // The sandbox took no real money; the refund is recorded the same way as Stripe's.
    async refund() {
      return { id: `re_sandbox_${token(18)}` };
    },
  };
}

/**
 * The provider could not create an intent. The buyer sees a retryable message (a retry with
 * the same idempotency key is safe); the provider's own message goes to the log as `cause`.
 */
class PaymentProviderUnavailable extends AppError {
  constructor(cause: unknown) {
    super('PaymentProviderUnavailable', 'The payment service is unavailable, please try again shortly', 502);
    this.cause = cause;
  }
}

/** The intent id inside a client secret ('pi_x_secret_y' → 'pi_x'), or null. */
export function intentIdOfClientSecret(clientSecret: string): string | null {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : null;
}

interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  /** e.g. http://127.0.0.1:12111 for a local stand-in; unset → api.stripe.com. */
  apiBase?: string;
}

/** Stripe PaymentIntents, amounts in cents, card only (the SPA shows Stripe's card element). */
function stripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...stripeAddress(options.apiBase),
    // The idempotency key makes the SDK's own retry safe.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'warmline-orders' },
  });
  return {
    name: 'stripe',
    publicConfig: () => ({ paymentProvider: 'stripe', stripePublishableKey: options.publishableKey }),
    async createIntent(request) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency,
            description: request.description,
            metadata: request.metadata,
            allowed_payment_method_types: ['card'],
            ...(request.receiptEmail ? { receipt_email: request.receiptEmail } : {}),
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (!intent.client_secret) throw new Error(`Stripe returned intent ${intent.id} without a client secret`);
        return { id: intent.id, clientSecret: intent.client_secret };
      } catch (err) {
        throw new PaymentProviderUnavailable(err);
      }
    },
    async refund(request) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: request.intentId, amount: request.amountCents, metadata: request.metadata },
          { idempotencyKey: request.idempotencyKey },
        );
        return { id: refund.id };
      } catch (err) {
        throw new PaymentProviderUnavailable(err);
      }
    },
  };
}

function stripeAddress(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** The provider the configuration asks for (see resolvePaymentProvider for the rules). */
export function createPaymentProvider(config: OrdersConfig): PaymentProvider {
  const name = resolvePaymentProvider(config);
  if (name === 'sandbox') return sandboxProvider();
  return stripeProvider({
    // resolvePaymentProvider has checked both keys are present.
    secretKey: config.STRIPE_SECRET_KEY ?? '',
    publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? '',
    ...(config.STRIPE_API_BASE ? { apiBase: config.STRIPE_API_BASE } : {}),
  });
}

function token(bytes: number): string {
  return randomBytes(bytes).toString('base64url').replace(/[-_]/g, '0');
}

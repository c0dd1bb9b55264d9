import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A local stand-in for the part of Stripe's API the orders service calls
 * (`POST /v1/payment_intents`, `POST /v1/refunds`). It records what it receives and answers like Stripe,
 * including Stripe's idempotency: the same Idempotency-Key returns the same intent.
 */
export interface StripeStandIn {
  url: string;
  requests: ReceivedRequest[];
  /** The intent as Stripe holds it (amount, currency, metadata), to build its webhook events from. */
  intent(id: string): Record<string, unknown> | undefined;
  /** The refunds made of an intent (`POST /v1/refunds`), oldest first. */
  refundsOf(intentId: string): Array<Record<string, unknown>>;
  /** Answer the next `n` requests with this HTTP status (a Stripe outage). */
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The form-encoded body, decoded ('metadata[orderId]' → value). */
  form: Record<string, string>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: ReceivedRequest[] = [];
  const intentsByKey = new Map<string, Record<string, unknown>>();
  const refundsByKey = new Map<string, Record<string, unknown>>();
  let failures = 0;
  let failureStatus = 500;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
        res.end(JSON.stringify(body));
      };
      if (failures > 0) {
        failures -= 1;
        send(failureStatus, { error: { type: 'api_error', message: 'Stripe stand-in is down' } });
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/refunds') {
        // Stripe's Refunds API: the same Idempotency-Key returns the same refund.
        const key = String(req.headers['idempotency-key'] ?? randomBytes(8).toString('hex'));
        let refund = refundsByKey.get(key);
        if (!refund) {
          refund = { id: `re_${randomBytes(12).toString('hex')}`, object: 'refund', amount: Number(form.amount), payment_intent: form.payment_intent, currency: 'usd', status: 'succeeded', reason: null };
          refundsByKey.set(key, refund);
        }
        send(200, refund);
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/payment_intents') {
        send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` } });
        return;
      }
      const key = String(req.headers['idempotency-key'] ?? randomBytes(8).toString('hex'));
      let intent = intentsByKey.get(key);
      if (!intent) {
        const id = `pi_${randomBytes(12).toString('hex')}`;
        const metadata = Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
        );
        intent = {
          id,
          object: 'payment_intent',
          amount: Number(form.amount),
          currency: form.currency,
          description: form.description ?? null,
          metadata,
          client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
          status: 'requires_payment_method',
          livemode: false,
        };
        intentsByKey.set(key, intent);
      }
      send(200, intent);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intent: (id) => [...intentsByKey.values()].find((intent) => intent.id === id),
    refundsOf: (intentId) => [...refundsByKey.values()].filter((refund) => refund.payment_intent === intentId),
    failNext(n, status = 500) {
      failures = n;
      failureStatus = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

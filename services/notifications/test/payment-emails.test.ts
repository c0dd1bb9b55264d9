import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { EMAIL_QUEUE, EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed, type Worker } from './worker-fixture';

/**
 * email.order_paid → the buyer's receipt and the sales team's notice, each written once,
 * through the real broker: the command is published on the commands exchange as the orders
 * service's relay does, and the e-mails travel as email.send commands through the worker's
 * own outbox.
 */

const bed = notificationsTestBed();

type PaidOrder = CommandData<'email.order_paid'>;

function orderPaid(data: Partial<PaidOrder> = {}): Envelope<PaidOrder> {
  return {
    id: randomUUID(),
    type: 'email.order_paid',
    version: 1,
    occurredAt: new Date().toISOString(),
    source: 'orders',
    correlationId: randomUUID(),
    data: {
      orderId: randomUUID(),
      kind: 'package',
      tier: 'premium',
      count: 60,
      unitPriceCents: 3700,
      amountCents: 222000,
      currency: 'usd',
      description: 'Premium Volume Package: 60 transfers × $37.00',
      buyerUserId: null,
      billingEmail: `buyer-${randomUUID().slice(0, 8)}@example.com`,
      provider: 'sandbox',
      paymentIntentId: `pi_sandbox_${randomUUID().replaceAll('-', '')}`,
      paidAt: '2026-11-21T15:04:05.000Z',
      ...data,
    },
  };
}

/** The decoded .eml messages of a worker addressed to `to`. */
async function mailTo(worker: Worker, to: string): Promise<string[]> {
  const messages = await Promise.all(
    (await emlFiles(worker.mailDir)).map(async (f) => decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'))),
  );
  return messages.filter((m) => new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm').test(m));
}

describe('payment e-mails', () => {
  it('when a package payment succeeds, then the buyer gets a receipt with the purchase and total, and the sales team a notice', async () => {
    const salesTeam = `sales-${randomUUID().slice(0, 8)}@example.com`;
    const support = `support-${randomUUID().slice(0, 8)}@example.com`;
    const worker = await bed.startWorker({ SALES_TEAM_EMAIL: salesTeam, SUPPORT_EMAIL: support });
    const event = orderPaid();
    const buyer = event.data.billingEmail!;

    await worker.send(event);

    const [receipt] = await waitFor('the receipt', async () => {
      const found = await mailTo(worker, buyer);
      return found.length > 0 ? found : undefined;
    });
    expect(receipt).toMatch(/^Subject: Your WarmLine receipt: \$2,220\.00$/m);
    expect(receipt).toContain("Thank you for your purchase! We'll be in touch soon.");
    expect(receipt).toContain('Premium Volume Package: 60 transfers × $37.00');
    expect(receipt).toContain('Total paid: $2,220.00 (USD)');
    expect(receipt).toContain(`Order: ${event.data.orderId}`);
    expect(receipt).toContain('Paid on: November 21, 2026');
    expect(receipt).toContain('120-Second Buffer Protection');
    // The address the success page shows (SUPPORT_EMAIL, issue 17 item 8), not the sales inbox.
    expect(receipt).toContain(`Write to ${support}`);
    expect(receipt).toMatch(/^From: WarmLine <no-reply@warmline\.local>$/m);

    const [notice] = await waitFor('the sales notice', async () => {
      const found = await mailTo(worker, salesTeam);
      return found.length > 0 ? found : undefined;
    });
    expect(notice).toContain('A package order was paid: Premium Volume Package: 60 transfers × $37.00, $2,220.00.');
    expect(notice).toContain(`Buyer e-mail: ${buyer}`);
    expect(notice).toContain('Buyer account: none (bought from a public checkout)');
    expect(notice).toContain('Paid with: sandbox (test card, no real money)');

    // The .eml is written inside the sending transaction; its email_log row is visible at commit.
    const logged = async (to: string) => {
      const rows = await bed.emailsTo(to);
      return rows.length > 0 ? rows.map((r) => r.template) : undefined;
    };
    expect(await waitFor('the receipt in the e-mail log', () => logged(buyer))).toEqual(['payment-receipt']);
    expect(await waitFor('the notice in the e-mail log', () => logged(salesTeam))).toEqual(['sales-payment-notice']);
  });

  it('when the same email.order_paid is delivered twice, then the receipt and the notice are each written once', async () => {
    const salesTeam = `sales-${randomUUID().slice(0, 8)}@example.com`;
    const worker = await bed.startWorker({ SALES_TEAM_EMAIL: salesTeam });
    const event = orderPaid();
    const buyer = event.data.billingEmail!;

    await worker.send(event);
    await waitFor('both e-mails', async () => (await mailTo(worker, buyer)).length === 1 && (await mailTo(worker, salesTeam)).length === 1);
    await worker.send(event);
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    // Stopping drains the handlers in flight and the relay, so nothing of the second delivery is pending.
    await worker.stop();

    expect(await worker.messagesIn(`${EMAIL_REQUESTS_QUEUE}.dlq`)).toBe(0);
    expect(await worker.messagesIn(`${EMAIL_QUEUE}.dlq`)).toBe(0);
    expect(await mailTo(worker, buyer)).toHaveLength(1);
    expect(await mailTo(worker, salesTeam)).toHaveLength(1);
    expect(await bed.emailsTo(buyer)).toHaveLength(1);
    expect(await bed.emailsTo(salesTeam)).toHaveLength(1);
  });

  it('when the buyer gave no billing e-mail, then only the sales team is told, at the default address when none is configured', async () => {
    const worker = await bed.startWorker();
    const event = orderPaid({
      tier: 'high-volume',
      count: 200,
      unitPriceCents: 2800,
      amountCents: 560000,
      description: 'High Volume Package: 200 transfers × $28.00',
    });
    delete event.data.billingEmail;

    await worker.send(event);

    const [notice] = await waitFor('the sales notice', async () => {
      const found = (await mailTo(worker, 'sales@warmline.local')).filter((m) => m.includes(event.data.orderId));
      return found.length > 0 ? found : undefined;
    });
    expect(notice).toContain('High Volume Package: 200 transfers × $28.00, $5,600.00');
    expect(notice).toContain('Buyer e-mail: not given');
    await worker.stop();
    expect(await emlFiles(worker.mailDir)).toHaveLength(1);
  });
});

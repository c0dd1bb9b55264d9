import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandData, CommandType, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { welcomeEmail } from '../src/domain/account-emails';
import { refundIssuedEmail } from '../src/domain/order-change-emails';
import { receiptEmail } from '../src/domain/payment-emails';
import { disputeOpenedEmail, leadsReceiptEmail } from '../src/domain/refund-emails';
import { EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed, type Worker } from './worker-fixture';

/**
 * E-mails that say the right thing (issue 12): the aged-lead receipt lists the leads bought and
 * those refunded, the second brand's receipts and welcome are in its name and words, and a
 * dispute reaches the team with its deadline.
 */

const bed = notificationsTestBed();
const CONTACT = { supportEmail: 'help@example.com' };
const SITE = { publicUrl: 'https://warmline.example/' };

function command<T extends CommandType>(type: T, data: CommandData<T>): Envelope<CommandData<T>> {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), source: 'orders', correlationId: randomUUID(), data };
}

function leadsReceipt(overrides: Partial<CommandData<'email.leads_receipt'>> = {}): CommandData<'email.leads_receipt'> {
  return {
    to: `lena-${randomUUID().slice(0, 8)}@example.com`,
    name: 'Lena',
    orderId: randomUUID(),
    paidCents: 500,
    paidAt: '2026-11-21T15:04:05.000Z',
    delivered: [
      { leadId: randomUUID(), name: 'Maria Gonzalez', phone: '(512) 555-0134', email: 'maria@example.com', zip: '78701', state: 'TX', ageRange: '30-60', priceCents: 250 },
    ],
    undelivered: [{ leadId: randomUUID(), name: 'Peter LinXXXXXX', state: 'OK', ageRange: '30-60', priceCents: 250 }],
    refundedCents: 250,
    ...overrides,
  };
}

function paidOrder(overrides: Partial<CommandData<'email.order_paid'>> = {}): CommandData<'email.order_paid'> {
  return {
    orderId: randomUUID(),
    kind: 'package',
    tier: 'ringcloud',
    count: 40,
    unitPriceCents: 1500,
    amountCents: 60_000,
    currency: 'usd',
    description: 'RingCloud Call-Backs: 40 callbacks × $15.00',
    buyerUserId: null,
    billingEmail: 'rc-buyer@example.com',
    provider: 'sandbox',
    paymentIntentId: 'pi_sandbox_x',
    paidAt: '2026-11-21T15:04:05.000Z',
    ...overrides,
  };
}

function dispute(overrides: Partial<CommandData<'email.dispute_opened'>> = {}): CommandData<'email.dispute_opened'> {
  return {
    orderId: randomUUID(),
    description: 'Premium Volume Package: 60 transfers × $37.00',
    orderAmountCents: 222_000,
    disputedCents: 222_000,
    reason: 'product_not_received',
    disputeId: 'dp_123',
    buyerName: 'Rita Buyer',
    buyerEmail: 'rita@example.com',
    evidenceDueBy: '2026-12-08T23:59:59.000Z',
    openedAt: '2026-11-24T12:00:00.000Z',
    ...overrides,
  };
}

describe('the aged-lead receipt', () => {
  it('when some leads were sold elsewhere before a late payment, then it lists the leads bought, the ones not delivered, the refund and when it arrives', () => {
    const mail = leadsReceiptEmail(leadsReceipt(), CONTACT, SITE);
    expect(mail.subject).toBe('Your WarmLine aged leads receipt: $2.50');
    expect(mail.template).toBe('leads-receipt');
    expect(mail.text).toContain('Your 1 aged lead is yours: its full contact details are below and in My Leads on your dashboard.');
    // What the buyer now owns, in full (issue 22); the lead they did not get stays masked.
    expect(mail.text).toContain('Leads bought:\n- Maria Gonzalez, (512) 555-0134, maria@example.com, TX 78701, 30-60 days old: $2.50');
    expect(mail.text).not.toContain('GonXXXXX');
    expect(mail.text).toContain('this lead was sold to another buyer in the meantime:\n- Peter LinXXXXXX, OK, 30-60 days old: $2.50');
    expect(mail.text).toContain('We have refunded $2.50 for it to the card you paid with. It usually reaches your card within 5–10 business days.');
    expect(mail.text).toContain('Total charged: $2.50');
    // Leads, not transfers: nothing about scheduling or the transfer guarantee.
    expect(mail.text).not.toMatch(/transfer/i);
    expect(mail.html).toContain('<li>Maria Gonzalez, (512) 555-0134, maria@example.com, TX 78701, 30-60 days old: $2.50</li>');
    expect(mail.html).not.toContain('Peter Lin<');
  });

  it('when a receipt was asked for before issue 22 (leads masked, no contact details), then it still reads as before', () => {
    const masked = { leadId: randomUUID(), name: 'Maria GonXXXXX', state: 'TX', ageRange: '30-60', priceCents: 250 };
    const mail = leadsReceiptEmail(leadsReceipt({ delivered: [masked] }), CONTACT, SITE);
    expect(mail.text).toContain('Leads bought:\n- Maria GonXXXXX, TX, 30-60 days old: $2.50');
  });

  it('when leads were bought, then it links to My Leads on the site and names the support address the success pages show, from the WarmLine sender', () => {
    const mail = leadsReceiptEmail(leadsReceipt({ undelivered: [], refundedCents: 0, paidCents: 250 }), CONTACT, SITE);
    expect(mail.text).toContain('See them in My Leads: https://warmline.example/dashboard?view=my-leads');
    expect(mail.html).toContain('<a href="https://warmline.example/dashboard?view=my-leads">See them in My Leads</a>');
    expect(mail.text).toContain('Write to help@example.com and quote your order number.');
    expect(mail.brand).toBe('WarmLine');
  });

  it('when no lead could be delivered, then it offers no My Leads link', () => {
    const receipt = leadsReceipt();
    const mail = leadsReceiptEmail({ ...receipt, delivered: [] }, CONTACT, SITE);
    expect(mail.text).not.toContain('My Leads:');
  });

  it('when the leads were a RingCloud pack, then the receipt is RingCloud\'s, sent in its name, with its support address', () => {
    const mail = leadsReceiptEmail({ ...leadsReceipt(), brand: 'RingCloud' }, { ...CONTACT, ringcloudSupportEmail: 'help@ringcloud.example' }, SITE);
    expect(mail.subject).toBe('Your RingCloud aged leads receipt: $2.50');
    expect(mail.brand).toBe('RingCloud');
    expect(mail.text).toContain('Write to help@ringcloud.example');
    expect(mail.text).not.toContain('WarmLine');
  });

  it('when every lead was delivered, then it says nothing of refunds', () => {
    const mail = leadsReceiptEmail(leadsReceipt({ undelivered: [], refundedCents: 0, paidCents: 250 }), CONTACT, SITE);
    expect(mail.subject).toBe('Your WarmLine aged leads receipt: $2.50');
    expect(mail.text).not.toMatch(/refund|another buyer/i);
  });

  it('when a market lead order is paid, then the order-paid command writes no receipt (the leads receipt follows once the leads are sold)', () => {
    expect(receiptEmail(paidOrder({ kind: 'lead', tier: 'aged-leads', description: 'Aged leads: 2 leads' }), CONTACT)).toBeUndefined();
  });
});

describe('issue 22', () => {
  it("when WarmLine's own call-backs are paid in the dashboard, then the receipt is WarmLine's, from WarmLine's sender, about call-backs in My Call-backs", () => {
    const mail = receiptEmail(paidOrder({ tier: 'callbacks', leadType: 'Call-Backs', count: 4, amountCents: 6000, description: 'WarmLine Call-Backs: 4 call-backs × $15.00' }), { ...CONTACT, ringcloudSupportEmail: 'help@ringcloud.example' })!;
    expect(mail.brand).toBe('WarmLine');
    expect(mail.subject).toBe('Your WarmLine receipt: $60.00');
    expect(mail.text).toContain('WarmLine Call-Backs: 4 call-backs × $15.00');
    expect(mail.text).toContain('My Call-backs');
    expect(mail.text).toContain('help@example.com');
    expect(mail.text).not.toContain('RingCloud');
    expect(mail.text).not.toContain('120-Second Buffer Protection');
  });

  it('when a RingCloud pack was short of stock in the states chosen, then its receipt says how many of how many, from where, where to see them and what is refunded', () => {
    const mail = leadsReceiptEmail(
      leadsReceipt({
        brand: 'RingCloud',
        paidCents: 40_000,
        refundedCents: 0,
        undelivered: [],
        delivered: [{ leadId: randomUUID(), name: 'Ana FloXXX', state: 'FL', ageRange: '60-90', priceCents: 400 }],
        leadPackage: { ordered: 100, states: ['FL', 'GA'], refundDueCents: 39_600 },
      }),
      CONTACT,
      SITE,
    );
    expect(mail.text).toContain('Leads delivered: 1 of 100');
    expect(mail.text).toContain('From the states you chose: FL, GA');
    expect(mail.text).toContain('See them in My Leads: https://warmline.example/dashboard?view=my-leads');
    expect(mail.text).toContain('We had 1 of the 100 leads you ordered in stock in FL, GA. The other 99 are refunded to the card you paid with: $396.00');
  });
});

describe('the second brand', () => {
  it('when a RingCloud call-back order is paid, then the receipt is RingCloud\'s and speaks of call-backs, not transfer scheduling or the transfer guarantee', () => {
    const mail = receiptEmail(paidOrder({ leadType: 'Call-Backs' }), CONTACT)!;
    expect(mail.subject).toBe('Your RingCloud receipt: $600.00');
    expect(mail.text).toContain('Each call-back is a prospect who asked to be called back');
    expect(mail.text).not.toContain('schedule your first transfers');
    expect(mail.text).not.toContain('120-Second Buffer Protection');
    expect(mail.text.trimEnd().endsWith('RingCloud')).toBe(true);
    expect(mail.text).not.toContain('WarmLine');
  });

  it('when a RingCloud aged-lead pack is paid, then the receipt says the leads are in My Leads now (filled from stock at once)', () => {
    const mail = receiptEmail(paidOrder({ leadType: 'Aged Leads', count: 100, unitPriceCents: 400, amountCents: 40_000, description: 'RingCloud Aged Leads (60-90 days): 100 leads × $4.00' }), CONTACT)!;
    expect(mail.subject).toBe('Your RingCloud receipt: $400.00');
    expect(mail.text).toContain('appear under My Leads');
    expect(mail.text).toContain('the rest of your payment is refunded');
    expect(mail.text).not.toContain('account manager');
    expect(mail.text).not.toContain('transfers');
  });

  it('when an order was written before leadType travelled, then the description still tells a call-back order apart', () => {
    const mail = receiptEmail(paidOrder(), CONTACT)!;
    expect(mail.text).toContain('Each call-back is a prospect');
  });

  it('when a RingCloud live-transfer order or a WarmLine package is paid, then the transfer wording and guarantee stay', () => {
    const rcTransfers = receiptEmail(paidOrder({ leadType: 'Live Transfers', description: 'RingCloud Live Transfers: 10 transfers × $37.00' }), CONTACT)!;
    expect(rcTransfers.subject).toMatch(/^Your RingCloud receipt/);
    expect(rcTransfers.text).toContain('120-Second Buffer Protection');
    const warmline = receiptEmail(paidOrder({ tier: 'premium', description: 'Premium Volume Package: 60 transfers × $37.00' }), CONTACT)!;
    expect(warmline.subject).toMatch(/^Your WarmLine receipt/);
    expect(warmline.text).toContain('schedule your first transfers');
  });

  it('when someone signs up through the RingCloud survey, then the welcome is in RingCloud\'s name', () => {
    const mail = welcomeEmail({ to: 'ann@example.com', firstName: 'Ann', username: 'ann_rc', loginUrl: 'http://localhost:3000/login', brand: 'RingCloud' });
    expect(mail.subject).toBe('Welcome to RingCloud: your account is ready');
    expect(mail.text).toContain('Your RingCloud account has been created.');
    expect(mail.text).not.toContain('WarmLine');
    expect(welcomeEmail({ to: 'sam@example.com', firstName: 'Sam', username: 'sam', loginUrl: 'http://localhost:3000/login' }).subject).toBe('Welcome to WarmLine: your account is ready');
  });
});

describe('a refund', () => {
  const refund = (description: string): CommandData<'email.refund_issued'> => ({
    to: 'buyer@example.com',
    name: 'Rita',
    orderId: randomUUID(),
    description,
    amountCents: 20_000,
    refundedTotalCents: 20_000,
    orderAmountCents: 60_000,
    reason: 'Goodwill',
    refundedAt: '2026-11-24T12:00:00.000Z',
  });

  it('when part of an order is refunded, then the buyer is told what, how much, why and when the money returns, in the brand they bought from', () => {
    const mail = refundIssuedEmail(refund('RingCloud Call-Backs: 40 callbacks × $15.00'));
    expect(mail.subject).toBe('RingCloud refund of $200.00');
    expect(mail.text).toContain('We have refunded $200.00 of your order "RingCloud Call-Backs: 40 callbacks × $15.00" to the card you paid with.');
    expect(mail.text).toContain('Reason: Goodwill');
    expect(mail.text).toContain('5–10 business days');
    expect(mail.text).toContain('Refunded so far: $200.00 of $600.00.');
    expect(refundIssuedEmail(refund('Premium Volume Package: 60 transfers × $37.00')).subject).toBe('WarmLine refund of $200.00');
  });
});

describe('a dispute', () => {
  it('when a buyer disputes a payment, then the team is told the order, amount, reason and the deadline', () => {
    const mail = disputeOpenedEmail(dispute(), 'sales@example.com');
    expect(mail.to).toBe('sales@example.com');
    expect(mail.subject).toBe('Payment disputed: Premium Volume Package: 60 transfers × $37.00 ($2,220.00)');
    expect(mail.text).toContain('Reason: product not received');
    expect(mail.text).toContain('Buyer: Rita Buyer, rita@example.com');
    expect(mail.text).toContain('Evidence due by: Tue, 08 Dec 2026 23:59:59 GMT');
    expect(mail.text).toContain('Answer the dispute with evidence in the Stripe dashboard before the deadline');
  });
});

async function mailTo(worker: Worker, to: string): Promise<string[]> {
  const messages = await Promise.all(
    (await emlFiles(worker.mailDir)).map(async (f) => decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'))),
  );
  return messages.filter((m) => new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm').test(m));
}

describe('through the worker', () => {
  it('when orders asks for a leads receipt and a dispute notice (each twice), then the buyer and the sales inbox each get theirs once', async () => {
    const sales = `sales-${randomUUID().slice(0, 8)}@example.com`;
    const worker = await bed.startWorker({ SALES_TEAM_EMAIL: sales });
    const receipt = command('email.leads_receipt', leadsReceipt());
    const notice = command('email.dispute_opened', dispute());
    for (const request of [receipt, notice, receipt, notice]) await worker.send(request);

    const [mail] = await waitFor('the leads receipt', async () => {
      const found = await mailTo(worker, receipt.data.to);
      return found.length > 0 && found;
    });
    expect(mail).toMatch(/^Subject: Your WarmLine aged leads receipt: \$2\.50$/m);
    expect(mail).toContain('Peter LinXXXXXX, OK, 30-60 days old');
    const [toTeam] = await waitFor('the dispute notice', async () => {
      const found = await mailTo(worker, sales);
      return found.length > 0 && found;
    });
    expect(toTeam).toContain(`Order: ${notice.data.orderId}`);
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    expect(await mailTo(worker, receipt.data.to)).toHaveLength(1);
    expect(await mailTo(worker, sales)).toHaveLength(1);
  });
});

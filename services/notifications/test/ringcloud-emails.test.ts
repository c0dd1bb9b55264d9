import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { waitFor } from '@warmline/platform/testing/index';
import { welcomeEmail } from '../src/domain/account-emails';
import { receiptEmail } from '../src/domain/payment-emails';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed } from './worker-fixture';

/**
 * The second brand stays itself to the end (issue 17 item 7): a RingCloud buyer's receipt and
 * welcome e-mail are in RingCloud's name and send them to RingCloud's support address
 * (RINGCLOUD_SUPPORT_EMAIL), never to WarmLine's inboxes.
 */

const bed = notificationsTestBed();

type PaidOrder = CommandData<'email.order_paid'>;

const RINGCLOUD_ORDER: PaidOrder = {
  orderId: randomUUID(),
  kind: 'package',
  tier: 'ringcloud',
  leadType: 'Call-Backs',
  count: 20,
  unitPriceCents: 1500,
  amountCents: 30000,
  currency: 'usd',
  description: 'RingCloud Call-Backs: 20 callbacks × $15.00',
  buyerUserId: null,
  billingEmail: 'rc.buyer@example.com',
  provider: 'sandbox',
  paymentIntentId: 'pi_sandbox_ringcloud',
  paidAt: '2026-11-21T15:04:05.000Z',
};

describe('RingCloud e-mails', () => {
  it('when a RingCloud order is paid, then the receipt the worker writes is RingCloud’s and names its support address, not the sales team', async () => {
    const salesTeam = `sales-${randomUUID().slice(0, 8)}@example.com`;
    const support = `help-${randomUUID().slice(0, 8)}@ringcloud.example.com`;
    const worker = await bed.startWorker({ SALES_TEAM_EMAIL: salesTeam, RINGCLOUD_SUPPORT_EMAIL: support });
    const buyer = `rc-${randomUUID().slice(0, 8)}@example.com`;
    const event: Envelope<PaidOrder> = {
      id: randomUUID(),
      type: 'email.order_paid',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'orders',
      correlationId: randomUUID(),
      data: { ...RINGCLOUD_ORDER, orderId: randomUUID(), billingEmail: buyer },
    };

    await worker.send(event);

    const receipt = await waitFor('the RingCloud receipt', async () => {
      for (const f of await emlFiles(worker.mailDir)) {
        const message = decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'));
        if (new RegExp(`^To: ${buyer.replaceAll('.', '\\.')}$`, 'm').test(message)) return message;
      }
      return undefined;
    });
    expect(receipt).toMatch(/^Subject: Your RingCloud receipt: \$300\.00$/m);
    expect(receipt).toContain(`Write to ${support}`);
    expect(receipt).not.toContain(salesTeam);
    // Sent in RingCloud's name (issue 17 item 7): RINGCLOUD_MAIL_FROM is unset, so its support address.
    expect(receipt).toMatch(new RegExp(`^From: RingCloud <${support.replaceAll('.', '\\.')}>$`, 'm'));
    expect(receipt).not.toMatch(/^From: .*warmline/im);
    const body = receipt.slice(receipt.indexOf('\n\n'));
    expect(body).not.toContain('WarmLine');
  });

  it('when RINGCLOUD_MAIL_FROM is set, then RingCloud’s welcome comes from it while WarmLine’s welcome keeps MAIL_FROM', async () => {
    const worker = await bed.startWorker({ MAIL_FROM: 'WarmLine <hello@warmline.example>', RINGCLOUD_MAIL_FROM: 'RingCloud Team <team@ringcloud.example>' });
    const tag = randomUUID().slice(0, 8);
    const welcome = (to: string, brand?: 'RingCloud'): Envelope<CommandData<'email.welcome'>> => ({
      id: randomUUID(),
      type: 'email.welcome',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'gateway',
      correlationId: randomUUID(),
      data: { to, firstName: 'Ann', username: 'ann', loginUrl: 'http://localhost:3000/login', ...(brand ? { brand } : {}) },
    });
    const rcBuyer = `rc-${tag}@example.com`;
    const wlBuyer = `wl-${tag}@example.com`;

    await worker.send(welcome(rcBuyer, 'RingCloud'));
    await worker.send(welcome(wlBuyer));

    const read = (to: string) =>
      waitFor(`the welcome to ${to}`, async () => {
        for (const f of await emlFiles(worker.mailDir)) {
          const message = await readFile(path.join(worker.mailDir, f), 'utf8');
          if (new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm').test(message)) return message;
        }
        return undefined;
      });
    expect(await read(rcBuyer)).toMatch(/^From: RingCloud Team <team@ringcloud\.example>$/m);
    expect(await read(wlBuyer)).toMatch(/^From: WarmLine <hello@warmline\.example>$/m);
  });

  it('when no RingCloud support address is configured, then its receipt names the default one; WarmLine receipts name WarmLine\'s support', () => {
    const ringcloud = receiptEmail(RINGCLOUD_ORDER, { supportEmail: 'support@warmline.local' });
    const { leadType: _rcProduct, ...order } = RINGCLOUD_ORDER;
    const warmline = receiptEmail({ ...order, tier: 'premium', description: 'Premium Volume Package: 60 transfers × $37.00' }, {
      supportEmail: 'help@warmline.example.com',
      ringcloudSupportEmail: 'help@ringcloud.example.com',
    });

    expect(ringcloud?.text).toContain(`Write to ${RINGCLOUD_SUPPORT_EMAIL_DEFAULT}`);
    expect(ringcloud?.html).toContain(`mailto:${RINGCLOUD_SUPPORT_EMAIL_DEFAULT}`);
    expect(warmline?.text).toContain('Write to help@warmline.example.com');
    expect(warmline?.text).not.toContain('ringcloud');
  });

  it('when a RingCloud survey created the account, then the welcome is RingCloud’s with its support address; a WarmLine welcome has none of it', () => {
    const request = { to: 'ann@example.com', firstName: 'Ann', username: 'ann_rc', loginUrl: 'http://localhost:3000/login' };

    const ringcloud = welcomeEmail({ ...request, brand: 'RingCloud' }, { ringcloudSupportEmail: 'help@ringcloud.example.com' });
    const warmline = welcomeEmail(request, { ringcloudSupportEmail: 'help@ringcloud.example.com' });

    expect(ringcloud.subject).toBe('Welcome to RingCloud: your account is ready');
    expect(ringcloud.text).toContain('Questions? Write to help@ringcloud.example.com.');
    expect(ringcloud.text).not.toContain('WarmLine');
    expect(warmline.subject).toBe('Welcome to WarmLine: your account is ready');
    expect(warmline.text).not.toContain('ringcloud');
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tallyEmails, type LoggedEmail } from '../../../infra/chaos/emails';

/**
 * make chaos counts e-mails per sign-up and per order (infra/chaos/emails.ts): a double is the same
 * recipient and subject twice for one of them. A lead receipt names its order and its buyer's
 * address, so it counts for the order, not for the sign-up.
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'chaos-emails-'));
const BUYER = 'signup.abc@chaos.example.com';
const ORDER_A = '47948698-99b9-4924-9239-b70b66bbb0c1';
const ORDER_B = '5d2c7e91-8a34-4b6f-a0c2-9e1d3f5a7b22';

function receipt(name: string, orderId: string): LoggedEmail {
  const location = path.join(dir, `${name}.eml`);
  writeFileSync(location, `Subject: Your WarmLine aged leads receipt: $2.50\nContent-Type: text/plain\n\nOrder ${orderId}\nSent to ${BUYER}\n`);
  return { commandId: name, recipient: BUYER, subject: 'Your WarmLine aged leads receipt: $2.50', location };
}

describe('the chaos run’s e-mail tally', () => {
  it('when one buyer gets two receipts of the same amount for two orders, then neither is a double, and each counts for its order', async () => {
    const tally = await tallyEmails([receipt('a', ORDER_A), receipt('b', ORDER_B)], new Set([BUYER, ORDER_A, ORDER_B]));
    expect([...tally.doubled]).toEqual([]);
    expect(tally.count.get(ORDER_A)).toBe(1);
    expect(tally.count.get(ORDER_B)).toBe(1);
  });

  it('when one order’s receipt is sent twice, then that order has one double', async () => {
    const tally = await tallyEmails([receipt('c', ORDER_A), receipt('d', ORDER_A)], new Set([BUYER, ORDER_A]));
    expect([...tally.doubled]).toEqual([[ORDER_A, 1]]);
  });

  it('when a sign-up’s welcome names only the address, then it counts for the sign-up', async () => {
    const welcome: LoggedEmail = { commandId: 'w', recipient: BUYER, subject: 'Welcome to WarmLine: your account is ready', location: null };
    const tally = await tallyEmails([welcome], new Set([BUYER, ORDER_A]));
    expect(tally.count.get(BUYER)).toBe(1);
  });
});

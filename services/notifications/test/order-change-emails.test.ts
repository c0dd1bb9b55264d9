import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CommandData } from '@warmline/contracts';
import { transferOrderStatusEmail } from '../src/domain/order-change-emails';

/** The agent's e-mail when a transfer order is completed or cancelled (issue 22: the admin's note, one US date format). */

function change(overrides: Partial<CommandData<'email.transfer_order_status'>> = {}): CommandData<'email.transfer_order_status'> {
  return { to: 'cora@example.com', firstName: 'Cora', orderId: randomUUID(), status: 'completed', totalTransfers: 10, changedAt: '2026-11-27T14:32:00.000Z', ...overrides };
}

describe("the agent's transfer order e-mail", () => {
  it("when the admin added a note, then it is quoted as the team's words; without one, nothing is added", () => {
    expect(transferOrderStatusEmail(change({ note: 'Thanks for a great month!' })).text).toContain('A note from the WarmLine team:\nThanks for a great month!');
    expect(transferOrderStatusEmail(change({ status: 'cancelled', reason: 'Paused', note: 'Call us to restart.' })).text).toContain('A note from the WarmLine team:\nCall us to restart.');
    expect(transferOrderStatusEmail(change()).text).not.toContain('A note from');
  });

  it('when an order is cancelled, then the date is in the US format with its zone named', () => {
    expect(transferOrderStatusEmail(change({ status: 'cancelled' })).text).toContain('was cancelled on 11/27/2026, 2:32 PM UTC.');
  });
});

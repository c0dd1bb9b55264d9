import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { calendarDate, canRefund, totalsFigures } from '../src/features/admin/orders/all-orders-format';
import { parseRefundAmount } from '../src/features/admin/orders/refund-dialog-amount';
import { RefundDialog } from '../src/features/admin/orders/refund-dialog';
import { CancelTransferDialog } from '../src/features/admin/orders/order-dialogs';
import { statesLabel, usDate } from '../src/features/transfers/order-format';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * All Orders and Transfer Orders (issue 12): the refund dialog sends nothing until the amount and
 * the reason are right, and then exactly what the server reads; totals, '+N more' and US dates.
 * The network is a stand-in `fetch` that records what the browser would send.
 */

interface Sent {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
}
let sent: Sent[] = [];

beforeEach(() => {
  sent = [];
  // Every request gets the refund's answer; with recordHeaders each call has its headers (hence Sent).
  sent = stubApi({}, { recordHeaders: true, fallback: () => ({ status: 201, body: { orderId: 'o-1', refundedCents: 5000, refundedTotalCents: 5000 } }) }).calls as Sent[];
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORDER_ID = '0b7e3c8a-2f1d-4c5e-9a6b-7d8e9f0a1b2c';

function openRefund(leftCents = 222000) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RefundDialog orderId={ORDER_ID} leftCents={leftCents} buyer="Bea Buyer" onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}
const refundButton = () => screen.getByRole('button', { name: 'Refund' });

describe('the Refund dialog', () => {
  it('when it opens, then it offers everything left and says how much that is', () => {
    openRefund();
    expect(screen.getByRole('dialog', { name: 'Refund Order' }).textContent).toContain('$2,220.00 can still be refunded to Bea Buyer');
    expect((screen.getByRole('radio', { name: /Everything left \(\$2,220\.00\)/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Amount ($)')).toBeNull();
  });

  it('when the reason is blank, then it says a reason is required and sends nothing', async () => {
    openRefund();
    fireEvent.click(refundButton());
    await screen.findByText('A reason is required');
    expect(sent).toEqual([]);
  });

  it('when a part is more than what is left, or not an amount, then it says the range and sends nothing', async () => {
    openRefund(5000);
    fireEvent.click(screen.getByRole('radio', { name: 'Part of it' }));
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Goodwill' } });
    for (const amount of ['50.01', '0', 'abc', '1.234']) {
      fireEvent.change(screen.getByLabelText('Amount ($)'), { target: { value: amount } });
      fireEvent.click(refundButton());
      await screen.findByText('Enter an amount from $0.01 to $50.00');
    }
    expect(sent).toEqual([]);
  });

  it('when everything left is refunded with a reason, then the body has no amount and carries an idempotency key', async () => {
    const onClose = openRefund();
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: '  Charged twice  ' } });
    fireEvent.click(refundButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`/api/admin/orders/${ORDER_ID}/refund`);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.body).toEqual({ reason: 'Charged twice' });
    expect(sent[0]!.headers['idempotency-key']).toMatch(/.{8,}/);
  });

  it('when a part is refunded, then it is sent in whole cents', async () => {
    const onClose = openRefund();
    fireEvent.click(screen.getByRole('radio', { name: 'Part of it' }));
    fireEvent.change(screen.getByLabelText('Amount ($)'), { target: { value: '$19.99' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Slow start' } });
    fireEvent.click(refundButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]!.body).toEqual({ amountCents: 1999, reason: 'Slow start' });
  });
});

describe('the Cancel Transfer Order dialog', () => {
  function openCancel(paid: boolean) {
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <CancelTransferDialog orderId={ORDER_ID} paid={paid} totalLabel="$700.00" onClose={onClose} />
      </QueryClientProvider>,
    );
    return onClose;
  }

  it('when a paid order is cancelled without a reason, then it says the payment is refunded and a reason is required, and sends nothing', async () => {
    openCancel(true);
    expect(screen.getByRole('dialog', { name: 'Cancel Transfer Order' }).textContent).toContain('refunds $700.00');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and Refund' }));
    await screen.findByText('A reason is required to cancel a paid order (its payment is refunded)');
    expect(sent).toEqual([]);
  });

  it('when a paid order is cancelled with a reason, then the move is sent with it', async () => {
    const onClose = openCancel(true);
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: 'The agent paused' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel and Refund' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([expect.objectContaining({ url: `/api/transfer-orders/${ORDER_ID}/status`, method: 'PATCH', body: { status: 'cancelled', reason: 'The agent paused' } })]);
  });

  it('when a pending order is cancelled, then no reason is needed', async () => {
    const onClose = openCancel(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Order' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]!.body).toEqual({ status: 'cancelled' });
  });
});

describe('the refund amount', () => {
  it('when dollars are typed, then whole cents come back without float errors, and everything left is sent as no amount', () => {
    expect(parseRefundAmount('19.99', 222000)).toEqual({ ok: true, amountCents: 1999 });
    expect(parseRefundAmount('1,000.1', 222000)).toEqual({ ok: true, amountCents: 100010 });
    expect(parseRefundAmount('.5', 222000)).toEqual({ ok: true, amountCents: 50 });
    expect(parseRefundAmount('2220', 222000)).toEqual({ ok: true, amountCents: undefined });
  });

  it('when the amount is zero, negative, too precise or more than is left, then it is refused with the range', () => {
    for (const text of ['0', '0.00', '-5', '1.005', '', '2220.01', '1e3']) {
      expect(parseRefundAmount(text, 222000)).toEqual({ ok: false, error: 'Enter an amount from $0.01 to $2,220.00' });
    }
  });
});

describe('the totals of All Orders', () => {
  it('when orders were paid and some refunded, then net revenue is paid less refunded, in dollars', () => {
    expect(totalsFigures({ count: 1234, paidCents: 285750, refundedCents: 5000 })).toEqual({
      orders: '1,234',
      paid: '$2,857.50',
      refunded: '$50.00',
      net: '$2,807.50',
    });
  });

  it('when nothing matches, then every figure is zero, never blank', () => {
    expect(totalsFigures({ count: 0, paidCents: 0, refundedCents: 0 })).toEqual({ orders: '0', paid: '$0.00', refunded: '$0.00', net: '$0.00' });
  });
});

describe('which orders can be refunded', () => {
  const paid = { status: 'paid' as const, paidAt: '2026-11-20T15:00:00Z', amountCents: 222000, refundedCents: 0 };
  it('when an order is paid, partly refunded or a completed transfer with money left, then it can', () => {
    expect(canRefund(paid)).toBe(true);
    expect(canRefund({ ...paid, status: 'partially-refunded', refundedCents: 5000 })).toBe(true);
    expect(canRefund({ ...paid, status: 'completed' })).toBe(true);
  });
  it('when an order is unpaid, failed, cancelled or refunded in full, then it cannot', () => {
    expect(canRefund({ ...paid, status: 'pending', paidAt: null })).toBe(false);
    expect(canRefund({ ...paid, status: 'failed', paidAt: null })).toBe(false);
    expect(canRefund({ ...paid, status: 'cancelled', refundedCents: 222000 })).toBe(false);
    expect(canRefund({ ...paid, status: 'refunded', refundedCents: 222000 })).toBe(false);
  });
});

describe('dates and states in the order tables', () => {
  it('when a timestamp is shown, then it reads MM/DD/YYYY', () => {
    expect(usDate('2026-11-21T18:00:00Z')).toBe('11/21/2026');
    expect(usDate('2026-03-04T18:00:00Z')).toBe('03/04/2026');
  });

  it('when a business-calendar day is shown, then it keeps its day in any time zone', () => {
    expect(calendarDate('2026-11-01')).toBe('11/01/2026');
    expect(calendarDate('2026-12-31')).toBe('12/31/2026');
  });

  it('when an order names more than two states, then the first two show and then +N more', () => {
    expect(statesLabel(['TX', 'OK', 'FL'])).toBe('TX, OK +1 more');
    expect(statesLabel(['TX', 'OK', 'FL', 'GA', 'AL'])).toBe('TX, OK +3 more');
    expect(statesLabel(['TX', 'OK'])).toBe('TX, OK');
  });
});

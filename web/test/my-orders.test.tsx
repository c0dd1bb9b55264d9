import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { MyOrder, MyOrdersAnswer } from '@warmline/contracts/my-orders';
import type { UnpaidLeadPurchasesResponse } from '@warmline/contracts/catalog';
import { MyOrdersView } from '../src/features/my-orders/my-orders-view';
import { receiptTotals, transferSummary } from '../src/features/my-orders/my-orders-format';
import { createQueryClient } from '../src/lib/query-client';
import { TEST_AGENT } from './accounts-fixture';
import { stubApi, type ApiCall } from './stub-api';

/**
 * My Orders (issue 12): each of the agent's orders with its product, US date, amount and status;
 * a receipt for the paid ones (lines, card's last four, refund), a plain reason for the others.
 * The network is a stand-in `fetch` answering GET /api/my-orders.
 */

const PACKAGE: MyOrder = {
  id: '5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f',
  product: 'package',
  description: 'Premium Volume Package: 60 transfers × $37.00',
  amountCents: 222000,
  refundedCents: 5000,
  status: 'partially-refunded',
  disputed: false,
  createdAt: '2026-11-20T18:00:00Z',
  paidAt: '2026-11-20T18:01:00Z',
  transfer: null,
  receipt: {
    lines: [{ item: 'Premium Volume Package', quantity: 60, unitPriceCents: 3700, amountCents: 222000 }],
    paidAt: '2026-11-20T18:01:00Z',
    amountCents: 222000,
    refundedCents: 5000,
    cardLast4: '4242',
  },
};
const PENDING_TRANSFER: MyOrder = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  product: 'transfer',
  description: 'Live transfers: 20 × $35.00',
  amountCents: 70000,
  refundedCents: 0,
  status: 'pending',
  disputed: false,
  createdAt: '2026-11-22T18:00:00Z',
  paidAt: null,
  transfer: { totalTransfers: 20, transfersPerDay: 5, transferHours: '9am-5pm CST', selectedStates: ['TX', 'OK', 'FL', 'GA'], transferNumber: '(405) 555-0199' },
  receipt: null,
};

/** A page of 25 as the server answers it. */
function page(orders: MyOrder[], total = orders.length, n = 1): MyOrdersAnswer {
  return { orders, total, page: n, pageSize: 25 };
}

let answer: MyOrdersAnswer = page([]);
let unpaid: UnpaidLeadPurchasesResponse = { purchases: [] };
let calls: ApiCall[] = [];
/** The pages of My Orders asked, in order. */
const asked = () => calls.filter((c) => c.url.startsWith('/api/my-orders')).map((c) => c.url);
/** The cancellations posted. */
const posted = () => calls.filter((c) => c.method === 'POST' && /^\/api\/bulk-purchase-leads\/[\w-]+\/cancel$/.test(c.url)).map((c) => c.url);
beforeEach(() => {
  unpaid = { purchases: [] };
  calls = stubApi(
    {},
    {
      fallback: ({ url, method }) => {
        if (url === '/api/bulk-purchase-leads') return { status: 200, body: unpaid };
        const cancelled = /^\/api\/bulk-purchase-leads\/([\w-]+)\/cancel$/.exec(url);
        if (cancelled && method === 'POST') {
          unpaid = { purchases: [] };
          return { status: 200, body: { orderId: cancelled[1], status: 'cancelled', releasedLeadCount: 3 } };
        }
        // Anything else is not here (and not JSON).
        if (!url.startsWith('/api/my-orders')) return { status: 404, body: { error: 'not here' }, headers: {} };
        return { status: 200, body: answer };
      },
    },
  ).calls;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderView() {
  const onBrowse = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MyOrdersView user={TEST_AGENT} onBrowse={onBrowse} onPurchasePaid={vi.fn()} />
    </QueryClientProvider>,
  );
  return onBrowse;
}

const UNPAID = {
  orderId: '0b8e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
  leadCount: 3,
  heldLeadCount: 3,
  totalCents: 750,
  createdAt: '2026-11-22T18:00:00Z',
  reservedUntil: '2026-11-22T18:15:00Z',
};

describe('unpaid lead purchases (issue 22)', () => {
  it('when the agent left a lead purchase unpaid, then My Orders lists it with Pay and Cancel, and Cancel asks the server and removes it', async () => {
    unpaid = { purchases: [UNPAID] };
    answer = page([PACKAGE]);
    renderView();
    const section = await screen.findByRole('region', { name: 'Unpaid lead purchases' });
    expect(section.textContent).toContain('3 aged leads · $7.50');
    expect(within(section).getByRole('button', { name: 'Pay $7.50 for 3 aged leads' })).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Cancel the purchase of 3 aged leads' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Unpaid lead purchases' })).toBeNull());
    expect(posted()).toEqual([`/api/bulk-purchase-leads/${UNPAID.orderId}/cancel`]);
  });

  it('when there is no unpaid purchase, then nothing is shown above the orders', async () => {
    answer = page([PACKAGE]);
    renderView();
    await screen.findAllByRole('row');
    expect(screen.queryByRole('region', { name: 'Unpaid lead purchases' })).toBeNull();
  });
});

describe('My Orders', () => {
  it('when the agent has orders, then each shows its product, US date, amount, refund and status', async () => {
    answer = page([PENDING_TRANSFER, PACKAGE]);
    renderView();
    const rows = await screen.findAllByRole('row');
    const transferRow = rows.find((r) => r.textContent?.includes('Live transfers: 20'))!;
    expect(transferRow.textContent).toContain('11/22/2026');
    expect(transferRow.textContent).toContain('$700.00');
    expect(transferRow.textContent).toContain('5/day · 9am-5pm CST · to (405) 555-0199');
    expect(within(transferRow).getByText('Pending')).toBeTruthy();
    expect(within(transferRow).getByText('Not paid yet')).toBeTruthy();
    expect(within(transferRow).queryByRole('button', { name: /Receipt/ })).toBeNull();

    const packageRow = rows.find((r) => r.textContent?.includes('Premium Volume Package'))!;
    expect(packageRow.textContent).toContain('$2,220.00');
    expect(packageRow.textContent).toContain('−$50.00 refunded');
    expect(within(packageRow).getByText('Partly refunded')).toBeTruthy();
  });

  it('when a paid order’s receipt is opened, then it lists what was bought, the card’s last four and what was paid in the end', async () => {
    answer = page([PACKAGE]);
    renderView();
    fireEvent.click(await screen.findByRole('button', { name: `View receipt: ${PACKAGE.description}` }));
    const receipt = await screen.findByRole('dialog', { name: 'Receipt' });
    const text = receipt.textContent ?? '';
    expect(text).toContain(PACKAGE.id);
    expect(text).toContain('11/20/2026');
    expect(text).toContain('Card ending 4242');
    expect(text).toContain('Premium Volume Package');
    expect(text).toContain('$37.00');
    expect(text).toContain('Refunded−$50.00');
    expect(text).toContain('Paid in the end$2,170.00');
    expect(within(receipt).getByRole('button', { name: 'Print' })).toBeTruthy();
  });

  it('when the buyer disputed a payment, then the order says Disputed beside its status', async () => {
    answer = page([{ ...PACKAGE, status: 'paid', refundedCents: 0, disputed: true }]);
    renderView();
    const row = (await screen.findAllByRole('row')).find((r) => r.textContent?.includes('Premium Volume Package'))!;
    expect(within(row).getByText('Paid')).toBeTruthy();
    expect(within(row).getByText('Disputed')).toBeTruthy();
  });

  it('when the agent has more orders than a page, then a pager asks the server for the next page', async () => {
    answer = page([PACKAGE], 60);
    renderView();
    const pager = await screen.findByRole('navigation', { name: 'Pages of your orders' });
    expect(within(pager).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(within(pager).queryByRole('button', { name: 'Page 4' })).toBeNull();
    answer = page([PENDING_TRANSFER], 60, 2);
    fireEvent.click(within(pager).getByRole('button', { name: 'Page 2' }));
    await screen.findByText('Live transfers: 20 × $35.00');
    expect(asked()).toEqual(['/api/my-orders?page=1', '/api/my-orders?page=2']);
  });

  it('when the agent has no orders, then it says so and offers to buy leads', async () => {
    answer = page([]);
    const onBrowse = renderView();
    await screen.findByText('You have not ordered anything yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Buy Aged Leads' }));
    expect(onBrowse).toHaveBeenCalled();
  });
});

describe('the receipt’s words', () => {
  it('when nothing was refunded, then only the charge shows', () => {
    expect(receiptTotals({ ...PACKAGE.receipt!, refundedCents: 0 })).toEqual([{ label: 'Charged', value: '$2,220.00' }]);
  });
  it('when a transfer order names more than two states, then the receipt line shows two and +N more', () => {
    expect(transferSummary(PENDING_TRANSFER.transfer!)).toBe('20 transfers · TX, OK +2 more · 5/day · 9am-5pm CST · to (405) 555-0199');
  });
  it('when a transfer order names one transfer and two states, then the line says so without +N more', () => {
    expect(transferSummary({ ...PENDING_TRANSFER.transfer!, totalTransfers: 1, selectedStates: ['TX', 'OK'] })).toBe('1 transfer · TX, OK · 5/day · 9am-5pm CST · to (405) 555-0199');
  });
});

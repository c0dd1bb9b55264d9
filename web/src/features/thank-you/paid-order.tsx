import { useQuery } from '@tanstack/react-query';
import type { OrderStatusResponse } from '@warmline/contracts/orders';
import { stateName } from '@warmline/contracts/us-states';
import { formatUsd } from '@warmline/contracts/pricing';
import { ApiError, apiRequest } from '../../lib/api';
import { usDateTime } from '../../lib/us-date';
import { paymentKeys } from '../payments/api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Stripe payment is confirmed by its webhook a moment after the card form: ask again a few times. */
const PENDING_POLL_MS = 2000;
const PENDING_POLLS = 15;

/**
 * What the success pages may say about the order in their URL, read from the server (never
 * from the browser's word): paid, still being confirmed, or no paid order at all.
 */
export type PaidOrderView =
  | { state: 'checking' }
  | { state: 'paid'; order: OrderStatusResponse }
  | { state: 'confirming'; order: OrderStatusResponse }
  | { state: 'failed'; order: OrderStatusResponse }
  /** No order id, a made-up one, or someone else's. */
  | { state: 'not-found' }
  | { state: 'unreachable' };

export function usePaidOrder(orderParam: string | null): PaidOrderView {
  const orderId = orderParam && UUID.test(orderParam) ? orderParam.toLowerCase() : null;
  const status = useQuery({
    queryKey: paymentKeys.orderStatus(orderId ?? ''),
    queryFn: ({ signal }) => apiRequest<OrderStatusResponse>(`/api/orders/${encodeURIComponent(orderId ?? '')}/status`, { signal }),
    enabled: orderId !== null,
    // Also while a paid RingCloud Aged Leads pack is being filled from stock (a moment after payment).
    refetchInterval: (query) =>
      (query.state.data?.status === 'pending' || (query.state.data?.status === 'paid' && query.state.data.leadPackage?.delivered === null)) &&
      query.state.dataUpdateCount < PENDING_POLLS
        ? PENDING_POLL_MS
        : false,
  });
  if (!orderId) return { state: 'not-found' };
  if (status.data) {
    if (status.data.status === 'paid') return { state: 'paid', order: status.data };
    if (status.data.status === 'failed') return { state: 'failed', order: status.data };
    return { state: 'confirming', order: status.data };
  }
  if (status.error) {
    return status.error instanceof ApiError && (status.error.status === 404 || status.error.status === 400)
      ? { state: 'not-found' }
      : { state: 'unreachable' };
  }
  return { state: 'checking' };
}

function paidOn(iso: string | null): string {
  if (!iso) return '—';
  return usDateTime(iso);
}

/** The receipt on screen: order number, what was bought, the total and when it was paid. */
export function OrderReceipt({ order }: { order: OrderStatusResponse }) {
  const rows: { term: string; detail: string; testId?: string }[] = [{ term: 'Order number', detail: order.orderId, testId: 'order-number' }];
  if (order.transfer) {
    rows.push(
      { term: 'Total transfers', detail: order.transfer.totalTransfers.toLocaleString('en-US') },
      { term: 'Transfers per day', detail: order.transfer.transfersPerDay.toLocaleString('en-US') },
      { term: 'States', detail: order.transfer.states.map(stateName).join(', ') },
      { term: 'Transfer hours', detail: order.transfer.transferHours },
      { term: 'Transfer phone', detail: order.transfer.transferPhone },
    );
  } else {
    rows.push({ term: 'What you bought', detail: order.description });
  }
  if (order.leadPackage && order.status === 'paid') {
    // How the pack was filled (issue 22): how many of how many, and from which states.
    const { ordered, delivered, states } = order.leadPackage;
    rows.push(
      { term: 'Leads delivered', detail: delivered === null ? 'Picking your leads…' : `${delivered.toLocaleString('en-US')} of ${ordered.toLocaleString('en-US')}`, testId: 'leads-delivered' },
      { term: 'From the states', detail: states && states.length > 0 ? states.map(stateName).join(', ') : 'All states' },
    );
    if (delivered !== null && delivered < ordered) {
      const refundCents = Math.min(order.amountCents, (ordered - delivered) * order.unitPriceCents);
      rows.push({ term: 'Refunded', detail: `${formatUsd(refundCents)} for the ${(ordered - delivered).toLocaleString('en-US')} not in stock` });
    }
  }
  rows.push(
    { term: order.status === 'paid' ? 'Total paid' : 'Total', detail: formatUsd(order.amountCents) },
    { term: 'Status', detail: order.status === 'paid' ? 'Paid' : order.status === 'failed' ? 'Not paid' : 'Confirming your payment…' },
    { term: 'Paid on', detail: order.status === 'paid' ? paidOn(order.paidAt) : 'Not yet' },
  );
  return (
    <dl className="paid-order" aria-label="Your order">
      {rows.map((row) => (
        <div key={row.term} className="paid-order__row">
          <dt>{row.term}</dt>
          <dd className={row.testId === 'order-number' ? 'paid-order__id' : undefined} data-testid={row.testId}>
            {row.detail}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What to say instead of 'Your payment was received' when there is no paid order to show. */
export function noPaidOrderText(view: Exclude<PaidOrderView, { state: 'paid' }>): { title: string; message: string } {
  switch (view.state) {
    case 'checking':
      return { title: 'Checking your order…', message: 'One moment while we look up your payment.' };
    case 'confirming':
      return {
        title: 'Confirming your payment',
        message: 'Your order is placed but we have not received the payment yet. This page updates as soon as it arrives.',
      };
    case 'failed':
      return {
        title: 'Payment not completed',
        message: `Your payment did not go through${view.order.failureMessage ? `: ${view.order.failureMessage}` : '.'} You have not been charged.`,
      };
    case 'unreachable':
      return { title: 'We could not check your order', message: 'Please reload this page in a moment, or contact support.' };
    case 'not-found':
      return {
        title: 'No paid order found',
        message: 'We could not find a paid order for this page. If you have just paid, your receipt e-mail has your order number.',
      };
  }
}

import { useState } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { MyOrder } from '@warmline/contracts/my-orders';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { ORDER_STATUS_LABELS } from '../admin/orders/all-orders-format';
import { usDate } from '../transfers/order-format';
import { useMyOrders } from './api';
import { MY_PRODUCT_LABELS, noReceiptReason, transferDelivery } from './my-orders-format';
import { ReceiptDialog } from './receipt-dialog';
import { UnpaidPurchases } from './unpaid-purchases';
import '../admin/shared/admin-orders.css';
import './my-orders.css';

/**
 * My Orders (issue 12, an extra dashboard view): every order of this agent — transfer orders in
 * every state, packages, second-brand orders, aged-lead purchases — newest first, each paid one
 * with its receipt. The same books as the admin's All Orders, seen from the agent's side. Above
 * them, unpaid aged-lead purchases with Pay and Cancel (issue 22). `onPurchasePaid` opens the
 * receipt of a purchase paid from here.
 */
export function MyOrdersView({ user, onBrowse, onPurchasePaid }: { user: PublicUser; onBrowse(): void; onPurchasePaid(orderId: string): void }) {
  const [page, setPage] = useState(1);
  const mine = useMyOrders(page);
  const [receiptOf, setReceiptOf] = useState<MyOrder | null>(null);

  return (
    <section className="dash-view my-orders" aria-labelledby="my-orders-title">
      <header className="view-header">
        <div className="view-header__text">
          <h1 id="my-orders-title" className="view-header__title">
            My Orders
          </h1>
          <p className="view-header__lead">Everything you ordered from WarmLine, its status, and a receipt for each payment.</p>
        </div>
      </header>

      <UnpaidPurchases user={user} onPaid={onPurchasePaid} />

      {mine.isPending ? (
        <Spinner label="Loading your orders…" showLabel />
      ) : mine.isError ? (
        <LoadError what="your orders" error={mine.error} onRetry={() => void mine.refetch()} />
      ) : mine.data.orders.length === 0 ? (
        <div className="card my-orders__empty">
          <p>You have not ordered anything yet.</p>
          <Button onClick={onBrowse}>Buy Aged Leads</Button>
        </div>
      ) : (
        <div className="card admin-orders__table-card">
          <table className="orders-table my-orders__table">
            <caption className="visually-hidden">Your orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Receipt</th>
              </tr>
            </thead>
            <tbody>
              {mine.data.orders.map((order) => (
                <tr key={order.id} data-order-id={order.id}>
                  <td data-label="Order">
                    <span className="orders-table__name">{MY_PRODUCT_LABELS[order.product]}</span>
                    <span className="orders-table__sub">{order.description}</span>
                    {order.transfer ? <span className="orders-table__sub">{transferDelivery(order.transfer)}</span> : null}
                  </td>
                  <td data-label="Placed" className="orders-table__nowrap">
                    <span>{usDate(order.createdAt)}</span>
                  </td>
                  <td data-label="Amount" className="orders-table__total">
                    <span>{formatUsd(order.amountCents)}</span>
                    {order.refundedCents > 0 ? <span className="orders-table__sub">−{formatUsd(order.refundedCents)} refunded</span> : null}
                  </td>
                  <td data-label="Status">
                    <span className={`order-status order-status--${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
                    {order.disputed ? <span className="order-status order-status--disputed">Disputed</span> : null}
                  </td>
                  <td data-label="Receipt">
                    {order.receipt ? (
                      <Button variant="secondary" className="btn--small" onClick={() => setReceiptOf(order)} aria-label={`View receipt: ${order.description}`}>
                        View receipt
                      </Button>
                    ) : (
                      <span className="orders-table__sub">{noReceiptReason(order)}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={mine.data.page} totalPages={Math.ceil(mine.data.total / mine.data.pageSize)} onPage={setPage} label="Pages of your orders" />
        </div>
      )}
      {receiptOf?.receipt ? <ReceiptDialog order={receiptOf} receipt={receiptOf.receipt} onClose={() => setReceiptOf(null)} /> : null}
    </section>
  );
}

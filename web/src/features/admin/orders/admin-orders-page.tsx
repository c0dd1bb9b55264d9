import { useState } from 'react';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { TransferOrderRecord, TransferOrderStatus } from '@warmline/contracts/transfers';
import { AppShell } from '../../../components/app-shell';
import { Button, ButtonLink } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { usePageTitle } from '../../../lib/page-title';
import { useTransferOrders } from '../../transfers/api';
import { formatDecimalUsd as money, statesLabel, usDate } from '../../transfers/order-format';
import { CancelTransferDialog, CompleteTransferDialog } from './order-dialogs';
import '../shared/admin.css';
import '../shared/admin-orders.css';

const STATUS_LABELS: Record<TransferOrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
const STATUSES = Object.keys(STATUS_LABELS) as TransferOrderStatus[];

/** `?status=paid` (the admin panel's Open Transfer Orders card) shows one status; anything else, every order. */
function statusFromParam(value: string | null): TransferOrderStatus | null {
  return STATUSES.find((s) => s === value) ?? null;
}

/**
 * /admin-orders (spec §2): 'Transfer Orders' with the four figures the server computes and
 * every order. The route guard only spares agents the screen; the server checks the admin flag.
 */
export function AdminOrdersPage({ user }: { user: PublicUser }) {
  usePageTitle('Transfer Orders');
  const orders = useTransferOrders();
  const [params, setParams] = useSearchParams();
  const status = statusFromParam(params.get('status'));
  const shown = orders.data ? orders.data.orders.filter((o) => status === null || o.status === status) : [];
  return (
    <AppShell user={user} area="Admin">
      <div className="admin-orders">
        <div className="admin-orders__header">
          <h1 className="admin-orders__title">Transfer Orders</h1>
          <div className="admin__links">
            <ButtonLink to="/admin-all-orders" variant="secondary" className="btn--small">
              All Orders
            </ButtonLink>
            <ButtonLink to="/admin" variant="secondary" className="btn--small">
              ← Admin Panel
            </ButtonLink>
          </div>
        </div>
        {orders.isPending ? (
          <Spinner label="Loading transfer orders…" showLabel />
        ) : orders.isError ? (
          <LoadError what="transfer orders" error={orders.error} onRetry={() => void orders.refetch()} />
        ) : (
          <>
            <ul className="order-stats" aria-label="Order figures">
              <StatCard label="Total Orders" value={orders.data.stats.totalOrders.toLocaleString('en-US')} />
              <StatCard label="Pending Orders" value={orders.data.stats.pendingOrders.toLocaleString('en-US')} />
              <StatCard label="Total Revenue" value={money(orders.data.stats.totalRevenue)} />
              <StatCard label="Total Transfers" value={orders.data.stats.totalTransfers.toLocaleString('en-US')} />
            </ul>
            <section className="card admin-orders__table-card" aria-labelledby="orders-table-title">
              <div className="admin-orders__table-head">
                <h2 id="orders-table-title" className="admin-orders__subtitle">
                  {status === null ? 'All orders' : `${STATUS_LABELS[status]} orders`}
                </h2>
                <label className="field admin-orders__status-filter">
                  <span className="field__label">Show</span>
                  <select
                    className="field__input"
                    value={status ?? ''}
                    onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}
                  >
                    <option value="">Every status</option>
                    {STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {STATUS_LABELS[s]}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {orders.data.orders.length === 0 ? (
                <p className="admin-orders__empty">No transfer orders yet.</p>
              ) : shown.length === 0 ? (
                <p className="admin-orders__empty">No {STATUS_LABELS[status ?? 'pending'].toLowerCase()} transfer orders.</p>
              ) : (
                <div className="orders-table-wrap">
                  <OrdersTable orders={shown} />
                </div>
              )}
            </section>
          </>
        )}
      </div>
    </AppShell>
  );
}

function StatCard({ label, value }: { label: string; value: string }) {
  return (
    <li className="order-stat">
      <span className="order-stat__label">{label}</span>
      <span className="order-stat__value">{value}</span>
    </li>
  );
}

function OrdersTable({ orders }: { orders: TransferOrderRecord[] }) {
  // Issue 22: the back office's dates are the business's (BUSINESS_TIMEZONE).
  const zone = useBusinessTimeZone();
  return (
    <table className="orders-table">
      <thead>
        <tr>
          <th scope="col">ID</th>
          <th scope="col">Customer</th>
          <th scope="col">Contact</th>
          <th scope="col">Transfer details</th>
          <th scope="col">States</th>
          <th scope="col">Total</th>
          <th scope="col">Status</th>
          <th scope="col">Date</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id} data-order-id={order.id}>
            <td data-label="ID">
              <span className="orders-table__id" title={order.id}>
                {order.id.slice(0, 8)}
              </span>
            </td>
            <td data-label="Customer">
              <span className="orders-table__name">{`${order.firstName} ${order.lastName}`.trim() || '—'}</span>
              <span className="orders-table__sub orders-table__nowrap">Transfer: {order.transferNumber}</span>
            </td>
            <td data-label="Contact">
              <a className="link orders-table__email" href={`mailto:${order.email}`}>
                <EmailText email={order.email} />
              </a>
              <span className="orders-table__sub orders-table__nowrap">{order.phone || '—'}</span>
            </td>
            <td data-label="Transfer details">
              <span>
                {order.totalTransfers.toLocaleString('en-US')} transfers · {order.transfersPerDay.toLocaleString('en-US')}/day
              </span>
              <span className="orders-table__sub">{order.transferHours}</span>
            </td>
            <td data-label="States">
              <span className="orders-table__nowrap" title={order.selectedStates.join(', ')}>
                {statesLabel(order.selectedStates)}
              </span>
            </td>
            <td data-label="Total" className="orders-table__total">
              {money(order.totalPrice)}
            </td>
            <td data-label="Status">
              <span className={`order-status order-status--${order.status}`}>{STATUS_LABELS[order.status]}</span>
            </td>
            <td data-label="Date">{usDate(order.createdAt, zone)}</td>
            <td data-label="Actions">
              <TransferOrderActions order={order} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An e-mail that may break after its @ when the column is narrow, never in the middle of a word. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/** The moves an order allows (issue 12): a paid one can be completed or cancelled (refunded), a pending one cancelled. */
function TransferOrderActions({ order }: { order: TransferOrderRecord }) {
  const [cancelling, setCancelling] = useState(false);
  const [completing, setCompleting] = useState(false);
  if (order.status !== 'paid' && order.status !== 'pending') return <span className="orders-table__sub">—</span>;
  const who = `${order.firstName} ${order.lastName}`.trim();
  return (
    <div className="orders-table__actions">
      {order.status === 'paid' ? (
        <Button className="btn--small" onClick={() => setCompleting(true)} aria-label={`Mark completed: order of ${who}`}>
          Mark Completed
        </Button>
      ) : null}
      {completing ? <CompleteTransferDialog order={order} onClose={() => setCompleting(false)} /> : null}
      <Button variant="secondary" className="btn--small" onClick={() => setCancelling(true)} aria-label={`Cancel order of ${who}`}>
        Cancel
      </Button>
      {cancelling ? (
        <CancelTransferDialog orderId={order.id} paid={order.status === 'paid'} totalLabel={money(order.totalPrice)} onClose={() => setCancelling(false)} />
      ) : null}
    </div>
  );
}

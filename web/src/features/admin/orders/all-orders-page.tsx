import { lazy, Suspense, useState } from 'react';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ADMIN_PAGE_SIZE } from '@warmline/contracts/admin-accounts';
import { ALL_ORDER_STATUSES, ORDER_PRODUCTS, type AdminOrderRow, type RevenueDay } from '@warmline/contracts/admin-orders';
import { AppShell } from '../../../components/app-shell';
import { Button, ButtonLink } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { errorMessage } from '../../../lib/api';
import { usePageTitle } from '../../../lib/page-title';
import { usDate } from '../../transfers/order-format';
import { allOrdersCsvUrl, allOrdersFilterFrom, useAllOrders, useRevenue, type AllOrdersFilter } from './orders-api';
import { calendarDate, canRefund, ORDER_STATUS_LABELS as STATUS_LABELS, PRODUCT_LABELS, totalsFigures, usd, type OrderTotals } from './all-orders-format';
import { RefundDialog } from './refund-dialog';
import '../shared/admin.css';
import '../shared/admin-orders.css';

const RevenueChart = lazy(() => import('./revenue-chart'));

/** /admin-all-orders (issue 12): every order of every product, its totals, refunds, revenue per day. */
export function AllOrdersPage({ user }: { user: PublicUser }) {
  usePageTitle('All Orders');
  const [params, setParams] = useSearchParams();
  const filter = allOrdersFilterFrom(params);
  const setFilter = (change: Partial<AllOrdersFilter>) => {
    const next = { ...filter, page: 1, ...change };
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value && !(key === 'page' && value === 1)) query.set(key, String(value));
    setParams(query);
  };
  const orders = useAllOrders(filter);
  // Issue 22: the back office's dates are the business's (BUSINESS_TIMEZONE), as its filters are.
  const zone = useBusinessTimeZone();
  const [refunding, setRefunding] = useState<AdminOrderRow | null>(null);
  const pages = Math.max(1, Math.ceil((orders.data?.total ?? 0) / ADMIN_PAGE_SIZE));

  return (
    <AppShell user={user} area="Admin">
      <div className="admin">
        <div className="admin__header">
          <h1 className="admin__title">All Orders</h1>
          <nav className="admin__links" aria-label="Back office">
            <ButtonLink to="/admin-orders" variant="secondary" className="btn--small">
              Transfer Orders
            </ButtonLink>
            <ButtonLink to="/admin" variant="secondary" className="btn--small">
              ← Admin Panel
            </ButtonLink>
          </nav>
        </div>

        <RevenueSection />

        <form className="card order-filters" aria-label="Filter orders" onSubmit={(e) => e.preventDefault()}>
          <label className="field">
            <span className="field__label">Buyer</span>
            <input
              className="field__input"
              type="search"
              value={filter.q}
              placeholder="E-mail or name"
              maxLength={254}
              onChange={(e) => setFilter({ q: e.target.value })}
            />
          </label>
          <label className="field">
            <span className="field__label">Product</span>
            <select className="field__input" value={filter.product} onChange={(e) => setFilter({ product: e.target.value })}>
              <option value="">All products</option>
              {ORDER_PRODUCTS.map((p) => (
                <option key={p} value={p}>
                  {PRODUCT_LABELS[p]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">Status</span>
            <select className="field__input" value={filter.status} onChange={(e) => setFilter({ status: e.target.value })}>
              <option value="">Any status</option>
              {ALL_ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">From</span>
            <input className="field__input" type="date" value={filter.from} onChange={(e) => setFilter({ from: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">To</span>
            <input className="field__input" type="date" value={filter.to} onChange={(e) => setFilter({ to: e.target.value })} />
          </label>
        </form>

        {orders.isPending ? (
          <Spinner label="Loading orders…" showLabel />
        ) : orders.isError ? (
          <LoadError what="orders" error={orders.error} onRetry={() => void orders.refetch()} />
        ) : (
          <>
            <ul className="order-stats" aria-label="Totals of these orders">
              <TotalsStats totals={orders.data.totals} />
            </ul>
            <section className="card admin-orders__table-card" aria-labelledby="all-orders-title">
              <div className="admin-orders__table-head">
                <h2 id="all-orders-title" className="admin-orders__subtitle">
                  Orders
                </h2>
                {orders.data.total > 0 ? (
                  <a className="btn btn--secondary btn--small" href={allOrdersCsvUrl(filter)} download>
                    Export CSV
                  </a>
                ) : null}
              </div>
              {orders.data.orders.length === 0 ? (
                <p className="admin-orders__empty">No orders match.</p>
              ) : (
                <div className="orders-table-wrap">
                  <table className="orders-table">
                    <thead>
                      <tr>
                        <th scope="col">Product</th>
                        <th scope="col">Buyer</th>
                        <th scope="col">Amount</th>
                        <th scope="col">Status</th>
                        <th scope="col">Date</th>
                        <th scope="col">Actions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {orders.data.orders.map((o) => (
                        <tr key={o.id} data-order-id={o.id}>
                          <td data-label="Product">
                            <span>{PRODUCT_LABELS[o.product]}</span>
                            <span className="orders-table__sub">{o.description}</span>
                          </td>
                          <td data-label="Buyer">
                            <span className="orders-table__name">{o.buyerName || '—'}</span>
                            <span className="orders-table__sub">{o.buyerEmail || '—'}</span>
                          </td>
                          <td data-label="Amount" className="orders-table__total">
                            {usd(o.amountCents)}
                            {o.refundedCents ? <span className="orders-table__sub">−{usd(o.refundedCents)} refunded</span> : null}
                          </td>
                          <td data-label="Status">
                            <span className={`order-status order-status--${o.status}`}>{STATUS_LABELS[o.status]}</span>
                            {o.disputed ? <span className="order-status order-status--disputed">Disputed</span> : null}
                          </td>
                          <td data-label="Date">{usDate(o.createdAt, zone)}</td>
                          <td data-label="Actions">
                            {canRefund(o) ? (
                              <Button variant="secondary" className="btn--small" onClick={() => setRefunding(o)} aria-label={`Refund ${o.description} of ${o.buyerName || o.buyerEmail || 'the buyer'}`}>
                                Refund
                              </Button>
                            ) : (
                              <span className="orders-table__sub">—</span>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <Pager page={filter.page} totalPages={pages} onPage={(page) => setFilter({ page })} label="Order pages" />
            </section>
          </>
        )}
        {refunding ? (
          <RefundDialog
            orderId={refunding.id}
            leftCents={refunding.amountCents - refunding.refundedCents}
            buyer={refunding.buyerName || refunding.buyerEmail || 'the buyer'}
            onClose={() => setRefunding(null)}
          />
        ) : null}
      </div>
    </AppShell>
  );
}

function TotalsStats({ totals }: { totals: OrderTotals }) {
  const figures = totalsFigures(totals);
  return (
    <>
      <Stat label="Orders" value={figures.orders} />
      <Stat label="Paid" value={figures.paid} />
      <Stat label="Refunded" value={figures.refunded} />
      <Stat label="Net Revenue" value={figures.net} testId="net-revenue" />
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <li className="order-stat">
      <span className="order-stat__label">{label}</span>
      <span className="order-stat__value" data-testid={testId}>
        {value}
      </span>
    </li>
  );
}

function RevenueSection() {
  const [days, setDays] = useState<30 | 90>(30);
  const revenue = useRevenue(days);
  const total = (list: RevenueDay[]) => list.reduce((sum, d) => sum + d.packageCents + d.secondBrandCents + d.agedLeadsCents + d.transferCents, 0);
  return (
    <section className="card revenue" aria-labelledby="revenue-title">
      <div className="revenue__header">
        <h2 id="revenue-title" className="admin-orders__subtitle">
          Revenue per day
        </h2>
        <div role="group" aria-label="Period" className="revenue__period">
          {([30, 90] as const).map((d) => (
            <Button key={d} variant={d === days ? 'primary' : 'secondary'} className="btn--small" aria-pressed={d === days} onClick={() => setDays(d)}>
              Last {d} days
            </Button>
          ))}
        </div>
      </div>
      {revenue.isPending ? (
        <Spinner label="Loading revenue…" showLabel />
      ) : revenue.isError ? (
        <p role="alert">Failed to fetch revenue: {errorMessage(revenue.error, 'the server did not answer')}.</p>
      ) : (
        <>
          <p className="revenue__total">
            {usd(total(revenue.data.days))} net over the last {days} days ({calendarDate(revenue.data.from)} to {calendarDate(revenue.data.to)})
          </p>
          {total(revenue.data.days) === 0 && revenue.data.days.every((d) => !d.packageCents && !d.secondBrandCents && !d.agedLeadsCents && !d.transferCents) ? (
            <p className="admin-empty">No payments or refunds in these days yet.</p>
          ) : (
            <div className="revenue__chart" data-testid="revenue-chart">
              <Suspense fallback={<Spinner label="Drawing the chart…" showLabel />}>
                <RevenueChart days={revenue.data.days} />
              </Suspense>
            </div>
          )}
        </>
      )}
    </section>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useAdminStats } from './api';
import './admin-orders.css';

function formatCents(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

function CardBody({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <>
      <span className="admin-card__label">{label}</span>
      <span className="admin-card__value">{value}</span>
      <span className="admin-card__hint">{hint}</span>
    </>
  );
}

/**
 * The four cards of /admin (issue 12): each opens what it counts. A number the server could not
 * give (the orders service down → null) reads 'Unavailable', never a misleading 0.
 */
export function AdminCards({ onOpenUsers }: { onOpenUsers: () => void }) {
  const stats = useAdminStats();
  const value = (n: number | null | undefined, format: (n: number) => string = (x) => x.toLocaleString('en-US')) =>
    stats.isPending ? '…' : stats.isError || n === null || n === undefined ? 'Unavailable' : format(n);
  const usersCard = (body: ReactNode) => (
    <button type="button" className="admin-card" onClick={onOpenUsers}>
      {body}
    </button>
  );
  return (
    <ul className="order-stats" aria-label="Business at a glance">
      <li>{usersCard(<CardBody label="Total Users" value={value(stats.data?.totalUsers)} hint="all accounts" />)}</li>
      <li>{usersCard(<CardBody label="New Sign-ups" value={value(stats.data?.newSignUps)} hint="last 7 days" />)}</li>
      <li>
        <Link className="admin-card" to="/admin-all-orders">
          <CardBody label="Revenue" value={value(stats.data?.revenueThisMonthCents, formatCents)} hint="this month, all products, net of refunds" />
        </Link>
      </li>
      <li>
        <Link className="admin-card" to="/admin-orders?status=paid">
          <CardBody label="Open Transfer Orders" value={value(stats.data?.openTransferOrders)} hint="paid, not yet completed" />
        </Link>
      </li>
    </ul>
  );
}

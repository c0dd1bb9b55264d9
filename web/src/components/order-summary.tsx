import { useId, type ReactNode } from 'react';
import './order-summary.css';

export interface SummaryRow {
  term: string;
  detail: ReactNode;
}

/**
 * The Order Summary box of a transfer order and of the RingCloud checkout: what is bought, row
 * by row, and the total last. A label keeps its line; a long value (a list of states) wraps.
 */
export function OrderSummary({ rows, total, totalTestId }: { rows: readonly SummaryRow[]; total: string; totalTestId?: string }) {
  const titleId = useId();
  return (
    <section className="order-summary" aria-labelledby={titleId}>
      <h2 id={titleId} className="order-summary__title">
        Order Summary
      </h2>
      <dl className="order-summary__rows">
        {rows.map((row) => (
          <div key={row.term}>
            <dt>{row.term}</dt>
            <dd>{row.detail}</dd>
          </div>
        ))}
        <div className="order-summary__total">
          <dt>Total</dt>
          <dd data-testid={totalTestId}>{total}</dd>
        </div>
      </dl>
    </section>
  );
}

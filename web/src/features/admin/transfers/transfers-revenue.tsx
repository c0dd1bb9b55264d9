import { useId } from 'react';
import { formatUsd } from '@warmline/contracts/pricing';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { useTransferRevenue } from './transfers-api';

const shortDate = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`;

/**
 * Revenue earned by delivered (charged) transfers beside the cash taken for transfers, per business
 * day over 30 days: prepaid cash becomes revenue only as transfers are delivered.
 */
export function TransferRevenue() {
  const revenue = useTransferRevenue();
  const titleId = useId();
  return (
    <section className="card transfers-admin__section" aria-labelledby={titleId}>
      <h3 id={titleId} className="transfers-admin__title">
        Earned and cash, last 30 days
      </h3>
      {revenue.isPending ? (
        <Spinner label="Loading transfer revenue…" showLabel />
      ) : revenue.isError ? (
        <LoadError what="transfer revenue" error={revenue.error} onRetry={() => void revenue.refetch()} />
      ) : (
        <>
          <dl className="transfers-admin__totals">
            <div>
              <dt>Earned by delivered transfers</dt>
              <dd data-testid="revenue-earned">{formatUsd(revenue.data.totals.earnedCents)}</dd>
            </div>
            <div>
              <dt>Cash taken for transfers</dt>
              <dd data-testid="revenue-cash">{formatUsd(revenue.data.totals.cashCents)}</dd>
            </div>
          </dl>
          {revenue.data.days.some((d) => d.earnedCents || d.cashCents) ? (
            <div className="transfers-admin__table-wrap">
              <table className="transfers-admin__table">
                <caption className="visually-hidden">Earned and cash per day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Earned</th>
                    <th scope="col">Cash</th>
                  </tr>
                </thead>
                <tbody>
                  {[...revenue.data.days]
                    .filter((d) => d.earnedCents || d.cashCents)
                    .reverse()
                    .map((d) => (
                      <tr key={d.date}>
                        <th scope="row">{shortDate(d.date)}</th>
                        <td>{formatUsd(d.earnedCents)}</td>
                        <td>{formatUsd(d.cashCents)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="admin-empty">No transfer revenue in the last 30 days.</p>
          )}
        </>
      )}
    </section>
  );
}

import { useId, useState } from 'react';
import { TRANSFERS_PAGE_SIZE, TRANSFER_STATUSES, TRANSFER_STATUS_LABELS, type TransferStatus } from '@warmline/contracts/live-transfers';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { usPhoneText } from '../../../lib/phone-text';
import { usTime } from '../../../lib/us-date';
import { durationText } from '../../my-transfers/format';
import { TransferStatusBadge } from '../../my-transfers/transfer-status-badge';
import { useAdminTransfers } from './transfers-api';
import { EvidenceLink } from '../../compliance/evidence-link';

const isStatus = (value: string): value is TransferStatus => (TRANSFER_STATUSES as readonly string[]).includes(value);

/** Today's date (YYYY-MM-DD) on the business's clock. */
function businessToday(zone: string, now = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return now.toLocaleDateString('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** Today's transfers as they happen (asked again every few seconds), with their agent and status in words. */
export function TransfersToday({ zone }: { zone: string }) {
  const [status, setStatus] = useState<TransferStatus | ''>('');
  const [page, setPage] = useState(1);
  const list = useAdminTransfers(businessToday(zone), status, page);
  const titleId = useId();
  const filterId = useId();
  return (
    <section className="card transfers-admin__section" aria-labelledby={titleId}>
      <div className="transfers-admin__head">
        <h3 id={titleId} className="transfers-admin__title">
          Today&apos;s transfers
        </h3>
        <div className="transfers-admin__filter">
          <label htmlFor={filterId} className="field__label">
            Show
          </label>
          <select
            id={filterId}
            className="field__input field__select"
            value={status}
            onChange={(e) => {
              setStatus(isStatus(e.target.value) ? e.target.value : '');
              setPage(1);
            }}
          >
            <option value="">All statuses</option>
            {TRANSFER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {TRANSFER_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.isPending ? (
        <Spinner label="Loading today's transfers…" showLabel />
      ) : list.isError ? (
        <LoadError what="today's transfers" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.transfers.length === 0 ? (
        <p className="admin-empty">{status ? `No transfers ${TRANSFER_STATUS_LABELS[status].toLowerCase()} today.` : 'No transfers yet today.'}</p>
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {list.data.total.toLocaleString('en-US')} {list.data.total === 1 ? 'transfer' : 'transfers'} today, newest first
          </p>
          <ul className="transfers-admin__list" data-testid="admin-transfers">
            {list.data.transfers.map((t) => (
              <li key={t.id} className="transfers-admin__row" data-testid="admin-transfer">
                <span className="transfers-admin__time">{usTime(t.routedAt, zone)}</span>
                <span className="transfers-admin__who">
                  <strong>{t.agent.name}</strong> ← {`${t.firstName} ${t.lastName}`}
                </span>
                <span className="transfers-admin__muted transfers-admin__call">
                  <span className="transfers-admin__nowrap">{usPhoneText(t.phone)}</span> · {t.state} · {durationText(t.durationSeconds)}
                </span>
                <span className="transfers-admin__status">
                  <TransferStatusBadge transfer={t} />
                </span>
                <EvidenceLink kind="transfer" admin id={t.id} name={`${t.firstName} ${t.lastName}`} />
              </li>
            ))}
          </ul>
          <Pager page={page} totalPages={Math.max(1, Math.ceil(list.data.total / TRANSFERS_PAGE_SIZE))} onPage={setPage} label="Today's transfer pages" />
        </>
      )}
    </section>
  );
}

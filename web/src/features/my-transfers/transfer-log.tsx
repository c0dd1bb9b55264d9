import { Fragment, useId, useState } from 'react';
import { TRANSFER_STATUSES, TRANSFER_STATUS_LABELS, type MyTransfersAnswer, type TransferStatus, type TransferView } from '@warmline/contracts/live-transfers';
import { Button } from '../../components/button';
import { Pager } from '../../components/pager';
import { usPhoneText } from '../../lib/phone-text';
import { usDateTime } from '../../lib/us-date';
import { telHref } from '../callbacks/format';
import { exportUrl, type TransferFilters } from './api';
import { DisputeForm, DisputeOutcome } from './dispute-form';
import { durationText } from './format';
import { DncBadge } from '../compliance/dnc-badge';
import { TransferStatusBadge } from './transfer-status-badge';
import { EvidenceLink } from '../compliance/evidence-link';
import { DoNotCallPhone } from '../compliance/do-not-call-phone';
import { CallingHoursBadge } from '../compliance/calling-hours-badge';

const isStatus = (value: string): value is TransferStatus => (TRANSFER_STATUSES as readonly string[]).includes(value);

/** The log's filters: status, from and to (the agent's dates), and the CSV of what they show. */
export function TransferFiltersBar({ filters, onChange }: { filters: TransferFilters; onChange: (filters: TransferFilters) => void }) {
  const id = useId();
  return (
    <div className="transfer-filters" role="search" aria-label="Filter transfers">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-status`}>
          Status
        </label>
        <select
          id={`${id}-status`}
          className="field__input field__select"
          value={filters.status}
          onChange={(e) => onChange({ ...filters, status: isStatus(e.target.value) ? e.target.value : '' })}
        >
          <option value="">All transfers</option>
          {TRANSFER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {TRANSFER_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-from`}>
          From
        </label>
        <input id={`${id}-from`} type="date" className="field__input" value={filters.from} max={filters.to || undefined} onChange={(e) => onChange({ ...filters, from: e.target.value })} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-to`}>
          To
        </label>
        <input id={`${id}-to`} type="date" className="field__input" value={filters.to} min={filters.from || undefined} onChange={(e) => onChange({ ...filters, to: e.target.value })} />
      </div>
      <a className="btn btn--secondary btn--small transfer-filters__export" href={exportUrl(filters)} download>
        Export CSV
      </a>
    </div>
  );
}

/** The log (issue 23 §5): newest first, 50 a page, times in the agent's zone (named in the heading). */
export function TransferLog({ answer, onPage, filtered }: { answer: MyTransfersAnswer; onPage: (page: number) => void; filtered: boolean }) {
  const [disputing, setDisputing] = useState<string | null>(null);
  const { transfers, total, page, pageSize, today } = answer;
  if (transfers.length === 0) {
    return (
      <p className="admin-empty my-transfers__empty">
        {filtered ? 'No transfers match these filters.' : 'No transfers yet. Each transfer shows here within seconds of its call, charged or not.'}
      </p>
    );
  }
  return (
    <>
      <p className="my-transfers__count" aria-live="polite">
        {total.toLocaleString('en-US')} {total === 1 ? 'transfer' : 'transfers'}, newest first
      </p>
      <div className="transfer-table__wrap">
        <table className="transfer-table" data-testid="transfer-log">
          <thead>
            <tr>
              <th scope="col">Time ({today.timeZoneName})</th>
              <th scope="col">Prospect</th>
              <th scope="col">Phone</th>
              <th scope="col">State</th>
              <th scope="col">Duration</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {transfers.map((t) => (
              <TransferRow key={t.id} transfer={t} zone={today.timeZone} disputing={disputing === t.id} onDispute={(on) => setDisputing(on ? t.id : null)} />
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} totalPages={Math.max(1, Math.ceil(total / pageSize))} onPage={onPage} label="Transfer pages" />
    </>
  );
}

function TransferRow({ transfer: t, zone, disputing, onDispute }: { transfer: TransferView; zone: string; disputing: boolean; onDispute: (on: boolean) => void }) {
  const name = `${t.firstName} ${t.lastName}`;
  const more = Boolean(t.transcript || t.recordingUrl || t.dispute || disputing);
  return (
    <Fragment>
      <tr className={more ? 'transfer-row transfer-row--with-more' : 'transfer-row'} data-testid="transfer-row">
        <td data-label="Time">{usDateTime(t.routedAt, zone)}</td>
        <th scope="row" data-label="Prospect" className="transfer-row__name">
          {name}
        </th>
        <td data-label="Phone" className="transfer-row__nowrap">
          <DoNotCallPhone href={telHref(t.phone)} optedOutAt={t.optedOutAt}>
            {usPhoneText(t.phone)}
          </DoNotCallPhone>{' '}
          <DncBadge dnc={t.dnc} />
          <CallingHoursBadge hours={t} />
        </td>
        <td data-label="State" className="transfer-row__nowrap">{t.state}</td>
        <td data-label="Duration" className="transfer-row__nowrap">{durationText(t.durationSeconds)}</td>
        <td data-label="Status">
          <TransferStatusBadge transfer={t} />
        </td>
        <td className="transfer-row__actions">
          <EvidenceLink kind="transfer" id={t.id} name={name} />
          {t.disputable && !disputing ? (
            <Button variant="secondary" className="btn--small" aria-label={`Dispute: ${name}`} onClick={() => onDispute(true)}>
              Dispute
            </Button>
          ) : null}
        </td>
      </tr>
      {more ? (
        <tr className="transfer-row__more">
          <td colSpan={7}>
            {t.transcript ? (
              <details className="transfer-row__transcript">
                <summary>Transcript</summary>
                <p>{t.transcript}</p>
              </details>
            ) : null}
            {t.recordingUrl ? (
              <a className="link" href={t.recordingUrl} target="_blank" rel="noopener noreferrer">
                Recording<span className="visually-hidden"> of the call with {name} (opens in a new tab)</span>
              </a>
            ) : null}
            {t.dispute ? <DisputeOutcome dispute={t.dispute} /> : null}
            {disputing ? <DisputeForm transfer={t} onClose={() => onDispute(false)} /> : null}
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

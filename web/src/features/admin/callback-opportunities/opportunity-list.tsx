import { useId, useState } from 'react';
import { US_STATE_CODES } from '@warmline/contracts/us-states';
import { CALLBACK_OPPORTUNITIES_PAGE_SIZE, CALLBACK_OPPORTUNITY_STATUSES, CALLBACK_SOURCES, type CallbackOpportunity, type CallbackOpportunityStatus, type CallbackSource } from '@warmline/contracts/callbacks';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { SOURCE_LABEL, isSource } from '../../callbacks/format';
import { exportUrl, useCallbackOpportunities, type OpportunityFilter } from './callback-opportunities-api';
import { AssignDialog } from './assign-dialog';
import { OpportunityCard } from './opportunity-card';
import { STATUS_LABEL } from './opportunity-status';

const FIRST_PAGE: OpportunityFilter = { status: '', state: '', source: '', page: 1 };

const isStatus = (v: string): v is CallbackOpportunityStatus => (CALLBACK_OPPORTUNITY_STATUSES as readonly string[]).includes(v);

export function OpportunityList() {
  const [filter, setFilter] = useState<OpportunityFilter>(FIRST_PAGE);
  const [assigning, setAssigning] = useState<CallbackOpportunity | null>(null);
  const list = useCallbackOpportunities(filter);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CALLBACK_OPPORTUNITIES_PAGE_SIZE));
  const statusId = useId();
  const stateId = useId();
  const sourceId = useId();
  // A new filter starts at its first page.
  const change = (next: Partial<OpportunityFilter>) => setFilter((f) => ({ ...f, ...next, page: 1 }));

  return (
    <section className="callbacks-list" aria-labelledby="callback-list-title">
      <div className="callbacks-section__head">
        <h2 id="callback-list-title" className="callbacks-section__title">
          Callback Opportunities
        </h2>
        <a className="btn btn--secondary btn--small" href={exportUrl(filter)} download>
          Export CSV
        </a>
      </div>
      <div className="callbacks-filters">
        <div className="field">
          <label className="field__label" htmlFor={statusId}>
            Status
          </label>
          <select id={statusId} className="field__input field__select" value={filter.status} onChange={(e) => change({ status: isStatus(e.target.value) ? e.target.value : '' })}>
            <option value="">Any status</option>
            {CALLBACK_OPPORTUNITY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={stateId}>
            State
          </label>
          <select id={stateId} className="field__input field__select" value={filter.state} onChange={(e) => change({ state: e.target.value })}>
            <option value="">Any state</option>
            <option value="NONE">Needs state</option>
            {US_STATE_CODES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={sourceId}>
            Source
          </label>
          <select id={sourceId} className="field__input field__select" value={filter.source} onChange={(e) => change({ source: isSource(e.target.value) ? e.target.value : '' })}>
            <option value="">Any source</option>
            {CALLBACK_SOURCES.map((s: CallbackSource) => (
              <option key={s} value={s}>
                {SOURCE_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {list.isPending ? (
        <Spinner label="Loading callback opportunities…" showLabel />
      ) : list.isError ? (
        <LoadError what="callback opportunities" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.opportunities.length === 0 ? (
        <p className="admin-empty">{filter.status || filter.state || filter.source ? 'No opportunities match these filters.' : 'No callback opportunities yet.'}</p>
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {total.toLocaleString('en-US')} {total === 1 ? 'opportunity' : 'opportunities'}, newest first
          </p>
          <ul className="callback-list">
            {list.data.opportunities.map((o) => (
              <OpportunityCard key={o.id} opportunity={o} onAssign={() => setAssigning(o)} />
            ))}
          </ul>
          <Pager page={filter.page} totalPages={pages} onPage={(page) => setFilter((f) => ({ ...f, page }))} label="Callback opportunity pages" />
        </>
      )}
      {assigning ? <AssignDialog opportunity={assigning} onClose={() => setAssigning(null)} /> : null}
    </section>
  );
}

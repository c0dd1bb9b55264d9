import { useId, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import {
  LEAD_RETURN_MESSAGES,
  LEAD_RETURN_PAGE_SIZE,
  LEAD_RETURN_RATE_DAYS,
  LEAD_RETURN_RATE_THRESHOLD,
  LEAD_RETURN_STATUSES,
  returnDollars,
  type AdminLeadReturn,
  type AdminLeadReturnsPage,
  type LeadReturnStatus,
} from '@warmline/contracts/lead-returns';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { apiRequest, errorMessage } from '../../../lib/api';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { usDateTime } from '../../../lib/us-date';
import { AcceptOrRefuse } from '../shared/accept-or-refuse';
import './lead-returns-tab.css';

/** The status shown, kept in the URL beside the shell's `?tab=returns`. */
const STATUS_PARAM = 'status';
const STATUS_LABEL: Record<LeadReturnStatus, string> = { pending: 'Waiting for a decision', accepted: 'Accepted', refused: 'Refused' };
const isStatus = (value: string | null): value is LeadReturnStatus => (LEAD_RETURN_STATUSES as readonly string[]).includes(value ?? '');

const returnKeys = {
  all: ['admin', 'lead-returns'] as const,
  page: (status: LeadReturnStatus, page: number) => [...returnKeys.all, status, page] as const,
};

/**
 * Returns (issue 24, ADR 0034): the lead returns an admin decides — pending oldest first — with
 * the lead, the buyer, their reason and note, and the buyer's return rate (flagged above the
 * threshold, never enforced); Accept refunds the lead's price once, Refuse asks for a reason.
 */
export function LeadReturnsTab() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(STATUS_PARAM);
  const status: LeadReturnStatus = isStatus(fromUrl) ? fromUrl : 'pending';
  const filterId = useId();
  const show = (next: LeadReturnStatus) =>
    setParams((current) => {
      const query = new URLSearchParams(current);
      query.set(STATUS_PARAM, next);
      return query;
    });
  return (
    <section className="lead-returns-admin" aria-labelledby="lead-returns-title">
      <div className="lead-returns-admin__header">
        <h2 id="lead-returns-title" className="lead-returns-admin__title">
          Lead Returns
        </h2>
        <div className="lead-returns-admin__filter">
          <label htmlFor={filterId} className="field__label">
            Show
          </label>
          <select id={filterId} className="field__input field__select" value={status} onChange={(e) => isStatus(e.target.value) && show(e.target.value)}>
            {LEAD_RETURN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="lead-returns-admin__muted">
        An agent whose returns are above {Math.round(LEAD_RETURN_RATE_THRESHOLD * 100)}% of the leads they bought in the last {LEAD_RETURN_RATE_DAYS} days is flagged. The flag is
        for your judgement only; nothing is blocked.
      </p>
      <ReturnList key={status} status={status} />
    </section>
  );
}

function ReturnList({ status }: { status: LeadReturnStatus }) {
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: returnKeys.page(status, page),
    queryFn: ({ signal }) => apiRequest<AdminLeadReturnsPage>(`/api/admin/lead-returns?${new URLSearchParams({ status, page: String(page) }).toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });
  if (list.isPending) return <Spinner label="Loading returns…" showLabel />;
  if (list.isError) return <LoadError what="lead returns" error={list.error} onRetry={() => void list.refetch()} />;
  const { returns, total } = list.data;
  const pages = Math.max(1, Math.ceil(total / LEAD_RETURN_PAGE_SIZE));
  if (returns.length === 0) return <p className="admin-empty">{status === 'pending' ? 'No return waits for a decision.' : `No ${STATUS_LABEL[status].toLowerCase()} returns.`}</p>;
  return (
    <>
      <p className="admin-count" aria-live="polite">
        {total.toLocaleString('en-US')} {total === 1 ? 'return' : 'returns'}
        {status === 'pending' ? ', oldest first' : ', newest decision first'}
      </p>
      <ul className="lead-returns-admin__list">
        {returns.map((r) => (
          <ReturnCard key={r.id} leadReturn={r} />
        ))}
      </ul>
      <Pager page={page} totalPages={pages} onPage={setPage} label="Lead return pages" />
    </>
  );
}

function ReturnCard({ leadReturn: r }: { leadReturn: AdminLeadReturn }) {
  const titleId = useId();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (body: { decision: 'accept' | 'refuse'; reason?: string }) =>
      apiRequest<AdminLeadReturn>(`/api/admin/lead-returns/${encodeURIComponent(r.id)}`, { method: 'POST', body }),
    onSuccess: (decided) => {
      toast({
        title: decided.status === 'accepted' ? 'Return accepted' : 'Return refused',
        description: decided.status === 'accepted' ? `${returnDollars(decided.priceCents)} goes back to ${r.buyer.username}'s card.` : `${r.buyer.username} sees why in My Leads.`,
        variant: 'success',
      });
      void queryClient.invalidateQueries({ queryKey: returnKeys.all });
    },
  });
  const rate = r.buyer.returnRate;
  const zone = useBusinessTimeZone();
  return (
    <li className="lead-returns-admin__card card" aria-labelledby={titleId} data-testid="lead-return">
      <h3 id={titleId} className="lead-returns-admin__name">
        {r.buyer.username}: {r.reasonLabel}
      </h3>
      <p className="lead-returns-admin__muted">
        {r.lead.name}, {r.lead.phone}, {r.lead.state} · bought {usDateTime(r.purchasedAt, zone)} for {returnDollars(r.priceCents)} · asked {usDateTime(r.requestedAt, zone)}
      </p>
      <p className="lead-returns-admin__rate">
        Return rate: {rate.returned} of {rate.bought} {rate.bought === 1 ? 'lead' : 'leads'} in {LEAD_RETURN_RATE_DAYS} days ({Math.round(rate.rate * 100)}%)
        {rate.flagged ? <span className="lead-returns-admin__flag"> Above {Math.round(LEAD_RETURN_RATE_THRESHOLD * 100)}%</span> : null}
      </p>
      {r.recordsBackIt === false ? <p className="lead-returns-admin__muted">{LEAD_RETURN_MESSAGES.notBacked}</p> : null}
      {r.note ? <p className="lead-returns-admin__note">“{r.note}”</p> : null}
      {r.status !== 'pending' ? (
        <p className="lead-returns-admin__muted">
          {r.status === 'accepted' ? 'Accepted' : 'Refused'} {r.decidedAt ? usDateTime(r.decidedAt, zone) : ''} by {r.decidedBy ? r.decidedBy.username : 'the records (automatic)'}
          {r.decisionReason ? `: ${r.decisionReason}` : ''}
          {r.status === 'accepted' ? (r.refundedAt ? ` · ${returnDollars(r.refundedCents ?? r.priceCents)} refunded ${usDateTime(r.refundedAt, zone)}` : ' · refund on its way') : ''}
        </p>
      ) : (
        <AcceptOrRefuse
          what="return"
          subject={`${r.lead.name} from ${r.buyer.username}`}
          hint="The agent reads this in My Leads."
          missingReason={LEAD_RETURN_MESSAGES.refuseReason}
          busy={decide.isPending}
          failure={decide.error ? errorMessage(decide.error, 'The decision could not be saved; please try again.') : undefined}
          onEdit={() => decide.reset()}
          onDecide={(decision, reason) => decide.mutate({ decision, ...(reason ? { reason } : {}) })}
          className="lead-returns-admin__actions"
        />
      )}
    </li>
  );
}

import { useSearchParams } from 'react-router-dom';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { usDateTime } from '../../../lib/us-date';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ADMIN_PAGE_SIZE, type AuditEntry } from '@warmline/contracts/admin-accounts';
import { AppShell } from '../../../components/app-shell';
import { ButtonLink } from '../../../components/button';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { usePageTitle } from '../../../lib/page-title';
import { AUDIT_LOG_FILTERS, auditLogCsvUrl, auditLogViewFrom, useAuditLog, type AuditLogFilter } from './audit-log-api';
import { describeAction, describeChanges } from './audit-log-format';
import '../shared/admin.css';
import './audit-log.css';
import '../shared/admin-orders.css';


function Changes({ entry }: { entry: AuditEntry }) {
  const changes = describeChanges(entry.before, entry.after);
  if (!changes.length) return <span className="audit-table__muted">—</span>;
  return (
    <ul className="audit-changes">
      {changes.map((c) => (
        <li key={c.key}>
          <span className="audit-table__muted">{c.label}:</span> {c.before ?? <em className="audit-table__muted">none</em>}
          <span aria-label="became"> → </span>
          {c.after ?? <em className="audit-table__muted">none</em>}
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin-audit-log (issue 12): every admin action of every service, newest first, 50 a page —
 * who, when, what, on whom, the values before → after, and why. Read only: nothing here edits.
 */
export function AuditLogPage({ user }: { user: PublicUser }) {
  usePageTitle('Audit Log');
  // The page and the filters are in the URL, so Back and a shared link land on the same rows.
  const [params, setParams] = useSearchParams();
  const { page, filter } = auditLogViewFrom(params);
  const show = (change: Partial<AuditLogFilter> & { page?: number }) => {
    const next: Record<string, string> = {};
    for (const key of AUDIT_LOG_FILTERS) {
      const value = change[key] ?? filter[key];
      if (value) next[key] = value;
    }
    // A new filter starts on its first page.
    const nextPage = change.page ?? 1;
    if (nextPage > 1) next.page = String(nextPage);
    setParams(next);
  };
  const setPage = (next: number) => show({ page: next });
  const filtered = AUDIT_LOG_FILTERS.some((key) => filter[key]);
  const log = useAuditLog(page, filter);
  // Issue 22: times on the business's clock (BUSINESS_TIMEZONE), named, as the From/To days are.
  const zone = useBusinessTimeZone();
  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  return (
    <AppShell user={user} area="Admin">
      <div className="admin">
        <div className="admin__header">
          <h1 className="admin__title">Audit Log</h1>
          <ButtonLink to="/admin" variant="secondary" className="btn--small">
            ← Admin Panel
          </ButtonLink>
        </div>
        <form className="card order-filters" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
          <label className="field">
            <span className="field__label">Admin</span>
            <input className="field__input" type="search" value={filter.admin} placeholder="Username" maxLength={200} onChange={(e) => show({ admin: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">Action</span>
            <select className="field__input" value={filter.action} onChange={(e) => show({ action: e.target.value })}>
              <option value="">Any action</option>
              {[...new Set([...(log.data?.actions ?? []), ...(filter.action ? [filter.action] : [])])].map((a) => (
                <option key={a} value={a}>
                  {describeAction(a)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field__label">Subject</span>
            <input className="field__input" type="search" value={filter.subject} placeholder="Name, e-mail or id" maxLength={300} onChange={(e) => show({ subject: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">From</span>
            <input className="field__input" type="date" value={filter.from} onChange={(e) => show({ from: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">To</span>
            <input className="field__input" type="date" value={filter.to} onChange={(e) => show({ to: e.target.value })} />
          </label>
        </form>
        {log.isPending ? (
          <Spinner label="Loading the audit log…" showLabel />
        ) : log.isError ? (
          <LoadError what="the audit log" error={log.error} onRetry={() => void log.refetch()} />
        ) : log.data.entries.length === 0 ? (
          total > 0 ? (
            <p className="admin-empty">
              There is no page {page}. <ButtonLink to="/admin-audit-log" variant="secondary" className="btn--small">Newest entries</ButtonLink>
            </p>
          ) : filtered ? (
            <p className="admin-empty">No admin actions match these filters.</p>
          ) : (
            <p className="admin-empty">No admin actions yet.</p>
          )
        ) : (
          <section className="card audit-log" aria-labelledby="audit-title">
            <div className="admin-orders__table-head">
              <h2 id="audit-title" className="audit-log__title">
                {total.toLocaleString('en-US')} {total === 1 ? 'action' : 'actions'}
                {filtered ? ' matching' : ''}, newest first
              </h2>
              <a className="btn btn--secondary btn--small" href={auditLogCsvUrl(filter)} download>
                Export CSV
              </a>
            </div>
            <table className="audit-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Before → After</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((e: AuditEntry) => (
                  <tr key={e.id} data-testid="audit-entry">
                    <td data-label="When">
                      <time dateTime={e.at}>{usDateTime(e.at, zone)}</time>
                    </td>
                    <td data-label="Who">{e.actorUsername}</td>
                    <td data-label="Action">
                      {describeAction(e.action)}
                      <code className="audit-table__code">{e.action}</code>
                    </td>
                    <td data-label="Subject">
                      {e.subjectLabel ?? e.subjectId}
                      <span className="audit-table__muted"> ({e.subjectType})</span>
                    </td>
                    <td data-label="Before → After">
                      <Changes entry={e} />
                    </td>
                    <td data-label="Reason">{e.reason ?? <span className="audit-table__muted">—</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} totalPages={pages} onPage={setPage} label="Audit log pages (newest first)" />
          </section>
        )}
      </div>
    </AppShell>
  );
}

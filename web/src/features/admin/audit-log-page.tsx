import { useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ADMIN_PAGE_SIZE, type AuditEntry } from '@warmline/contracts/admin-accounts';
import { AppShell } from '../../components/app-shell';
import { ButtonLink } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { Spinner } from '../../components/spinner';
import { usePageTitle } from '../../lib/page-title';
import { useAuditLog } from './api';
import { describeAction, describeChanges } from './audit-log-format';
import './admin.css';
import './audit-log.css';

function when(at: string): string {
  return new Date(at).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' });
}

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
  // The page is in the URL (?page=), so Back and a shared link land on the same rows.
  const [params, setParams] = useSearchParams();
  const asked = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isFinite(asked) && asked >= 1 ? asked : 1;
  const setPage = (next: number) => setParams(next > 1 ? { page: String(next) } : {});
  const log = useAuditLog(page);
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
        {log.isPending ? (
          <Spinner label="Loading the audit log…" showLabel />
        ) : log.isError ? (
          <LoadError what="the audit log" error={log.error} onRetry={() => void log.refetch()} />
        ) : log.data.entries.length === 0 ? (
          total > 0 ? (
            <p className="admin-empty">
              There is no page {page}. <ButtonLink to="/admin-audit-log" variant="secondary" className="btn--small">Newest entries</ButtonLink>
            </p>
          ) : (
            <p className="admin-empty">No admin actions yet.</p>
          )
        ) : (
          <section className="card audit-log" aria-labelledby="audit-title">
            <h2 id="audit-title" className="audit-log__title">
              {total.toLocaleString('en-US')} {total === 1 ? 'action' : 'actions'}, newest first
            </h2>
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
                      <time dateTime={e.at}>{when(e.at)}</time>
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

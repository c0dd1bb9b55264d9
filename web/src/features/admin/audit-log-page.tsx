import { useState } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ADMIN_PAGE_SIZE, type AuditEntry } from '@warmline/contracts/admin-accounts';
import { AppShell } from '../../components/app-shell';
import { Button, ButtonLink } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { useAuditLog } from './api';
import './admin.css';

/** `{ liveTransferPrice: '35.00' }` → 'liveTransferPrice 35.00'. */
function describeValues(values: Record<string, unknown> | null): string {
  if (!values) return '—';
  return Object.entries(values)
    .map(([key, value]) => `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function when(at: string): string {
  return new Date(at).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' });
}

/** /admin-audit-log (issue 12): every admin action, newest first, 50 a page; read only. */
export function AuditLogPage({ user }: { user: PublicUser }) {
  usePageTitle('Audit Log');
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / ADMIN_PAGE_SIZE));
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
          <div className="card" role="alert">
            <p>Failed to fetch the audit log: {errorMessage(log.error, 'the server did not answer')}.</p>
            <Button variant="secondary" onClick={() => void log.refetch()}>
              Retry
            </Button>
          </div>
        ) : log.data.entries.length === 0 ? (
          <p className="admin-empty">No admin actions yet.</p>
        ) : (
          <section className="card" aria-labelledby="audit-title">
            <h2 id="audit-title" className="visually-hidden">
              Admin actions, newest first
            </h2>
            <div className="orders-table-wrap">
              <table className="audit-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Subject</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {log.data.entries.map((e: AuditEntry) => (
                    <tr key={e.id}>
                      <td>{when(e.at)}</td>
                      <td>{e.actorUsername}</td>
                      <td>
                        {e.action}
                        {e.reason ? <span className="audit-table__reason"> — {e.reason}</span> : null}
                      </td>
                      <td>{e.subjectLabel ?? `${e.subjectType} ${e.subjectId}`}</td>
                      <td>{describeValues(e.before)}</td>
                      <td>{describeValues(e.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {pages > 1 ? (
              <nav className="admin-pager" aria-label="Audit log pages">
                <Button variant="secondary" className="btn--small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                  Newer
                </Button>
                <span>
                  Page {page} of {pages}
                </span>
                <Button variant="secondary" className="btn--small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                  Older
                </Button>
              </nav>
            ) : null}
          </section>
        )}
      </div>
    </AppShell>
  );
}

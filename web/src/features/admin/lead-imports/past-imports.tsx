import { useState } from 'react';
import { LEAD_IMPORT_PAGE_SIZE, type LeadImportView } from '@warmline/contracts/lead-imports';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { useLeadImportsPage } from './lead-imports-api';
import { PastImport } from './past-import';
import { UndoImportDialog } from './undo-import-dialog';

export function PastImports({
  page,
  onPage,
  watched,
  live,
  onWatch,
}: {
  page: number;
  onPage: (page: number) => void;
  watched: string | null;
  live: LeadImportView | undefined;
  onWatch: (id: string) => void;
}) {
  const list = useLeadImportsPage(page);
  const [undoing, setUndoing] = useState<LeadImportView | null>(null);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / (list.data?.pageSize ?? LEAD_IMPORT_PAGE_SIZE)));

  return (
    <section className="lead-imports__past" aria-labelledby="past-imports-title">
      <h2 id="past-imports-title" className="lead-imports__title">
        Past Imports
      </h2>
      {list.isPending ? (
        <Spinner label="Loading past imports…" showLabel />
      ) : list.isError ? (
        <LoadError what="past imports" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.imports.length === 0 ? (
        <p className="admin-empty">No imports yet. Upload a CSV file above.</p>
      ) : (
        <>
          <ul className="import-list">
            {list.data.imports.map((listed) => {
              const job = live?.id === listed.id ? live : listed;
              return <PastImport key={job.id} job={job} watched={job.id === watched} onWatch={() => onWatch(job.id)} onUndo={() => setUndoing(job)} />;
            })}
          </ul>
          <Pager page={page} totalPages={pages} onPage={onPage} label="Past import pages" />
        </>
      )}
      {undoing ? <UndoImportDialog job={undoing} onClose={() => setUndoing(null)} /> : null}
    </section>
  );
}

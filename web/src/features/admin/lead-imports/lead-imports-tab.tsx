import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isUnfinished } from './lead-import-progress';
import { useLeadImport, useLeadImportsPage } from './lead-imports-api';
import { SuppressionsPanel } from '../compliance/suppressions-panel';
import { CurrentImport } from './current-import';
import { PastImports } from './past-imports';
import { UploadForm } from './upload-form';
import './lead-imports.css';

/** The import being watched, kept in the URL beside the shell's `?tab=`, so a reload comes back to its bar. */
const IMPORT_PARAM = 'import';

/**
 * Upload Aged Leads (spec §2 Admin, issue 13): the template, a CSV file sent with its own byte
 * progress, then the import's progress polled until it ends ('Upload Complete!' for 3 seconds),
 * the past imports with their reports and Undo, and the suppression list below.
 */
export function LeadImportsTab() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(IMPORT_PARAM);
  const [page, setPage] = useState(1);
  // The newest imports are where one still going is found (a reload without ?import=, another tab's upload).
  const newest = useLeadImportsPage(1);
  const newestUnfinished = newest.data?.imports.find((i) => isUnfinished(i.status))?.id ?? null;
  // The import this tab uploaded: its banner shows even when the importer was done before the first poll.
  const [uploadedHere, setUploadedHere] = useState<string | null>(null);
  // The watched import's latest reading (the same query its panel polls), so its row in the list moves too.
  const live = useLeadImport(fromUrl).data;

  const watch = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(IMPORT_PARAM, id);
        else next.delete(IMPORT_PARAM);
        return next;
      },
      { replace: true },
    );

  // An import found running is put in the URL, so its panel stays when it ends (and drops out of "running").
  useEffect(() => {
    if (!fromUrl && newestUnfinished) watch(newestUnfinished);
    // `watch` is a new function each render; only the ids say when to act.
  }, [fromUrl, newestUnfinished]);

  return (
    <div className="lead-imports">
      <UploadForm
        onStarted={(id) => {
          setUploadedHere(id);
          setPage(1);
          watch(id);
        }}
      />
      {fromUrl ? <CurrentImport key={fromUrl} id={fromUrl} uploadedHere={fromUrl === uploadedHere} onClose={() => watch(null)} /> : null}
      <PastImports page={page} onPage={setPage} watched={fromUrl} live={live} onWatch={watch} />
      <SuppressionsPanel />
    </div>
  );
}

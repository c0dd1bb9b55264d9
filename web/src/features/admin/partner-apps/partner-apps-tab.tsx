import { useEffect, useId, useState, type ReactNode } from 'react';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { useSearchParams } from 'react-router-dom';
import {
  PARTNER_APPLICATION_PAGE_SIZE,
  PARTNER_APPLICATION_STATUSES,
  type PartnerApplicationStatus,
  type PartnerApplicationView,
  type PartnerDocument,
} from '@warmline/contracts/partners';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { FileIcon } from '../../../components/icons';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { formatBytes } from '../lead-imports/lead-import-progress';
import { useDeletePartnerApplication, usePartnerApplications, useSetPartnerStatus } from './partner-apps-api';
import { NoteField } from '../shared/note-field';
import './partner-apps.css';
import { usDateTime } from '../../../lib/us-date';

/** The status shown, kept in the URL beside the shell's `?tab=`. */
const STATUS_PARAM = 'status';

const STATUS_LABEL: Record<PartnerApplicationStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
};

const isStatus = (value: string | null): value is PartnerApplicationStatus =>
  (PARTNER_APPLICATION_STATUSES as readonly string[]).includes(value ?? '');


/**
 * Partner Apps (spec §2 Admin, issue 14): the applications to the partner network, newest first,
 * 50 a page, of one status or all; each with its contact details, answers and documents (downloads),
 * a status dropdown, and Delete behind a confirmation.
 */
export function PartnerAppsTab() {
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get(STATUS_PARAM);
  const status: PartnerApplicationStatus | '' = isStatus(fromUrl) ? fromUrl : '';
  const filterId = useId();

  const show = (next: PartnerApplicationStatus | '') =>
    setParams((current) => {
      const query = new URLSearchParams(current);
      if (next) query.set(STATUS_PARAM, next);
      else query.delete(STATUS_PARAM);
      return query;
    });

  return (
    <section className="partner-apps" aria-labelledby="partner-apps-title">
      <div className="partner-apps__header">
        <h2 id="partner-apps-title" className="partner-apps__title">
          Partner Applications
        </h2>
        <div className="partner-apps__filter">
          <label htmlFor={filterId} className="field__label">
            Show
          </label>
          <select id={filterId} className="field__input field__select" value={status} onChange={(e) => show(isStatus(e.target.value) ? e.target.value : '')}>
            <option value="">All applications</option>
            {PARTNER_APPLICATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {/* A new filter starts at its first page. */}
      <ApplicationList key={status} status={status} />
    </section>
  );
}

function ApplicationList({ status }: { status: PartnerApplicationStatus | '' }) {
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<PartnerApplicationView | null>(null);
  const list = usePartnerApplications(status, page);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PARTNER_APPLICATION_PAGE_SIZE));

  // Spec §8's toast, once per failure; the list says so too, with a Retry.
  const { isError, error, errorUpdatedAt } = list;
  useEffect(() => {
    if (isError) toast({ title: 'Failed to fetch affiliate network signups', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
  }, [isError, error, errorUpdatedAt]);

  // The last application of the last page deleted (or moved out of the filter): the page before.
  const emptyPage = list.data !== undefined && list.data.applications.length === 0 && page > 1;
  useEffect(() => {
    if (emptyPage) setPage((p) => Math.max(1, Math.min(p - 1, pages)));
  }, [emptyPage, pages]);

  if (list.isPending) return <Spinner label="Loading partner applications…" showLabel />;
  if (list.isError) return <LoadError what="partner applications" error={list.error} onRetry={() => void list.refetch()} />;
  const { applications } = list.data;
  if (applications.length === 0 && page === 1) {
    return <p className="admin-empty">{status ? `No ${STATUS_LABEL[status].toLowerCase()} applications.` : 'No partner applications yet.'}</p>;
  }
  return (
    <>
      <p className="admin-count" aria-live="polite">
        {total.toLocaleString('en-US')} {status ? `${STATUS_LABEL[status].toLowerCase()} ` : ''}
        {total === 1 ? 'application' : 'applications'}, newest first
      </p>
      <ul className="partner-app-list">
        {applications.map((application) => (
          <PartnerApplicationCard key={application.id} application={application} onDelete={() => setDeleting(application)} />
        ))}
      </ul>
      <Pager page={page} totalPages={pages} onPage={setPage} label="Partner application pages" />
      {deleting ? <DeleteApplicationDialog application={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

function PartnerApplicationCard({ application: a, onDelete }: { application: PartnerApplicationView; onDelete: () => void }) {
  const titleId = useId();
  const statusId = useId();
  // The status picked in the dropdown, waiting for the admin's confirmation (issue 22).
  const zone = useBusinessTimeZone();
  const [asked, setAsked] = useState<PartnerApplicationStatus | null>(null);

  return (
    <li className="card partner-app" data-testid="partner-application" aria-labelledby={titleId}>
      <div className="partner-app__head">
        <div className="partner-app__who">
          <h3 id={titleId} className="partner-app__name">
            {a.businessName}
          </h3>
          <p className="partner-app__meta">
            Applied {usDateTime(a.createdAt, zone)} · {a.businessType}
          </p>
        </div>
        <span className={`partner-status partner-status--${a.status}`} data-testid="partner-status">
          {STATUS_LABEL[a.status]}
        </span>
      </div>

      <div className="partner-app__body">
        <dl className="partner-app__facts">
          <Fact label="Contact">{a.contactName}</Fact>
          <Fact label="Email">
            <a className="link" href={`mailto:${a.email}`}>
              {a.email}
            </a>
          </Fact>
          <Fact label="Phone">
            <a className="link" href={`tel:${a.phone.replace(/[^\d+]/g, '')}`}>
              {a.phone}
            </a>
          </Fact>
          <Fact label="Website">
            {/^https?:\/\//i.test(a.website) ? (
              <a className="link" href={a.website} target="_blank" rel="noopener noreferrer">
                {a.website.replace(/^https?:\/\//i, '').replace(/\/$/, '')}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            ) : (
              a.website
            )}
          </Fact>
          <Fact label="Experience">{a.experience}</Fact>
          <Fact label="Monthly volume">{a.leadsPerMonth}</Fact>
          <Fact label="Services" wide>
            {a.servicesInterested.join(', ') || '—'}
          </Fact>
          <Fact label="Target markets" wide>
            {a.targetMarkets}
          </Fact>
          <Fact label="Business description" wide long>
            {a.businessDescription}
          </Fact>
          <Fact label="Why partner" wide long>
            {a.whyPartner}
          </Fact>
        </dl>
        <Documents documents={a.documents} />
      </div>

      <div className="partner-app__actions">
        <div className="partner-app__status">
          <label htmlFor={statusId} className="field__label">
            Status
          </label>
          <select
            id={statusId}
            className="field__input field__select"
            value={asked ?? a.status}
            aria-label={`Status of ${a.businessName}`}
            onChange={(e) => {
              if (isStatus(e.target.value) && e.target.value !== a.status) setAsked(e.target.value);
            }}
          >
            {PARTNER_APPLICATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </div>
        <Button variant="danger" className="btn--small" onClick={onDelete} aria-label={`Delete application of ${a.businessName}`}>
          Delete
        </Button>
      </div>
      {asked ? <StatusChangeDialog application={a} status={asked} onClose={() => setAsked(null)} /> : null}
    </li>
  );
}

/** What the applicant receives for each decision, as the notifications service words it. */
function emailPreview(a: PartnerApplicationView, status: PartnerApplicationStatus): ReactNode {
  const to = <strong>{a.email}</strong>;
  if (status === 'approved') {
    return (
      <>
        {a.contactName} is e-mailed at {to}: “Your WarmLine partner application is approved” — welcome to the partner network, and a partnerships manager will
        contact them within 2 business days to set up the integration.
      </>
    );
  }
  if (status === 'rejected') {
    return (
      <>
        {a.contactName} is e-mailed at {to}: “Your WarmLine partner application” — a polite no: we cannot offer a partnership at this time, and they are welcome to
        apply again.
      </>
    );
  }
  return <>Nothing is e-mailed: {a.contactName} was told on applying that the application is under review.</>;
}

const CONFIRM_LABEL: Record<PartnerApplicationStatus, string> = {
  approved: 'Approve and E-mail',
  rejected: 'Reject and E-mail',
  pending: 'Move Back to Pending',
};

/**
 * A status change asks first (issue 22): approving or rejecting e-mails the applicant at once
 * and cannot be called back, so the dialog says what will be sent and takes an optional note
 * that the e-mail quotes and the audit log keeps.
 */
function StatusChangeDialog({ application: a, status, onClose }: { application: PartnerApplicationView; status: PartnerApplicationStatus; onClose: () => void }) {
  const [note, setNote] = useState('');
  const setStatus = useSetPartnerStatus();
  const emails = status !== 'pending';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={status === 'approved' ? `Approve ${a.businessName}?` : status === 'rejected' ? `Reject ${a.businessName}?` : `Move ${a.businessName} back to pending?`}
      description={`The application is ${STATUS_LABEL[a.status].toLowerCase()} now.${emails ? ' The e-mail goes out at once and cannot be called back.' : ''}`}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setStatus.mutate(
            { id: a.id, status, ...(note.trim() ? { note: note.trim() } : {}) },
            {
              onSuccess: () => {
                toast({
                  title: 'Status updated',
                  description: `${a.businessName} is ${STATUS_LABEL[status].toLowerCase()}.${emails ? ` ${a.contactName} has been e-mailed.` : ''}`,
                  variant: 'success',
                });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to update application status', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            },
          );
        }}
      >
        <p className="dialog__email" data-testid="email-preview">
          {emailPreview(a, status)}
          {emails && note.trim() ? ' Your note is quoted in it.' : ''}
        </p>
        <NoteField value={note} onChange={setNote} who={a.contactName || 'the applicant'} />
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Keep {STATUS_LABEL[a.status]}</Button>
          </DialogClose>
          <Button type="submit" variant={status === 'rejected' ? 'danger' : 'primary'} busy={setStatus.isPending}>
            {CONFIRM_LABEL[status]}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function Fact({ label, wide, long, children }: { label: string; wide?: boolean; long?: boolean; children: ReactNode }) {
  const classes = ['partner-app__fact', wide ? 'partner-app__fact--wide' : '', long ? 'partner-app__fact--long' : ''].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The documents as downloads (always attachments, from the partners service through the gateway). */
function Documents({ documents }: { documents: PartnerDocument[] }) {
  const titleId = useId();
  return (
    <div className="partner-app__documents">
      <h4 id={titleId} className="partner-app__documents-title">
        Documents
      </h4>
      {documents.length === 0 ? (
        <p className="partner-app__none">No documents attached.</p>
      ) : (
        <ul aria-labelledby={titleId} className="partner-app__document-list">
          {documents.map((d) => (
            <li key={d.filename}>
              <a className="partner-doc-link" href={d.url} download>
                <FileIcon size={20} />
                <span className="visually-hidden">Download </span>
                <span className="partner-doc-link__name">{d.originalName}</span>
                <span className="partner-doc-link__size">{formatBytes(d.size)}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function DeleteApplicationDialog({ application: a, onClose }: { application: PartnerApplicationView; onClose: () => void }) {
  const remove = useDeletePartnerApplication();
  const documents = a.documents.length;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete Partner Application"
      description={`Delete the application of ${a.businessName} (${a.contactName}, ${a.email})?${
        documents ? ` Its ${documents === 1 ? 'document is' : `${documents} documents are`} deleted too.` : ''
      } This cannot be undone.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button
          variant="danger"
          busy={remove.isPending}
          onClick={() =>
            remove.mutate(a.id, {
              onSuccess: () => {
                toast({ title: 'Application deleted', description: `The application of ${a.businessName} is deleted.`, variant: 'success' });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to delete partner application', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          Delete
        </Button>
      </div>
    </Dialog>
  );
}

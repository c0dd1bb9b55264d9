import { useEffect, useState, type FormEvent } from 'react';
import { usPhoneText } from '../../../lib/phone-text';
import { suppressionBody, SUPPRESSION_PAGE_SIZE, type SuppressionView } from '@warmline/contracts/lead-imports';
import { Button } from '../../../components/button';
import { AdminSearchForm } from '../shared/search-form';
import { Dialog, DialogClose } from '../../../components/dialog';
import { TextField } from '../../../components/field';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { ApiError, errorMessage } from '../../../lib/api';
import { focusFirstError, validate, type FieldErrors } from '../../../lib/form';
import { usDate } from '../../transfers/order-format';
import { formatCount } from '../lead-imports/lead-import-progress';
import { useAddSuppression, useRemoveSuppression, useSuppressions } from './suppressions-api';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { OPT_OUT_SOURCE_LABELS } from '@warmline/contracts/do-not-call';
import { OptOutListUpload } from './opt-out-list-upload';

type AddValues = { phone: string; reason: string };

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * The suppression list (issue 13), a section of Upload Aged Leads: phones that opted out. Adding
 * one takes its unsold leads off sale at once, keeps it out of every later import and tells the
 * agents who bought it to stop; removing one lets it be imported again.
 */
export function SuppressionsPanel() {
  const zone = useBusinessTimeZone();
  const [q, setQ] = useState('');
  const [draft, setDraft] = useState('');
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<SuppressionView | null>(null);
  const list = useSuppressions(q, page);
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / (list.data?.pageSize ?? SUPPRESSION_PAGE_SIZE)));

  // A failed read says so once as a toast (spec §8's way), and in the list with a Retry.
  const { isError, error, errorUpdatedAt } = list;
  useEffect(() => {
    if (isError) toast({ title: 'Failed to fetch the suppression list', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
  }, [isError, error, errorUpdatedAt]);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setQ(draft.trim());
  };

  return (
    <section className="card suppressions" aria-labelledby="suppressions-title">
      <h2 id="suppressions-title" className="lead-imports__title">
        Suppression List
      </h2>
      <p className="lead-imports__hint">
        Phones that asked not to be contacted. A suppressed phone’s unsold leads come off sale at once, it is never imported again,
        and the agents who bought it are told to stop calling.
      </p>
      <AddSuppressionForm />
      <OptOutListUpload />

      <AdminSearchForm
        id="suppression-search"
        className="suppressions__search"
        formLabel="Search the suppression list"
        label="Search suppressed phones"
        placeholder="Search by phone"
        button="Search"
        inputMode="tel"
        value={draft}
        onChange={setDraft}
        onSubmit={search}
      />

      {list.isPending ? (
        <Spinner label="Loading the suppression list…" showLabel />
      ) : list.isError ? (
        <LoadError what="the suppression list" error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.suppressions.length === 0 ? (
        <p className="admin-empty">{q ? `No suppressed phone matches “${q}”.` : 'No phones are suppressed.'}</p>
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {plural(list.data.total, 'suppressed phone', 'suppressed phones')}
            {q ? ` matching “${q}”` : ''}
          </p>
          <ul className="suppression-list">
            {list.data.suppressions.map((s) => (
              <li key={s.phone} className="suppression-row" data-testid="suppression-row">
                <div className="suppression-row__who">
                  <strong className="suppression-row__phone">{usPhoneText(s.phone)}</strong>
                  <span className="suppression-row__reason">{s.reason}</span>
                  <span className="suppression-row__meta">
                    {OPT_OUT_SOURCE_LABELS[s.source]} · added {usDate(s.createdAt, zone)}
                  </span>
                </div>
                <Button variant="secondary" className="btn--small" onClick={() => setRemoving(s)} aria-label={`Remove ${usPhoneText(s.phone)} from the suppression list`}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Pager page={page} totalPages={pages} onPage={setPage} label="Suppression list pages" />
        </>
      )}
      {removing ? <RemoveSuppressionDialog suppression={removing} onClose={() => setRemoving(null)} /> : null}
    </section>
  );
}

function AddSuppressionForm() {
  const [values, setValues] = useState<AddValues>({ phone: '', reason: '' });
  const [errors, setErrors] = useState<FieldErrors<AddValues>>({});
  const add = useAddSuppression();

  const set = (name: keyof AddValues, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = validate<AddValues>(suppressionBody, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusFirstError(form, checked.errors);
      return;
    }
    setErrors({});
    add.mutate(checked.data, {
      onSuccess: (created) => {
        setValues({ phone: '', reason: '' });
        toast({
          title: `${usPhoneText(created.phone)} suppressed`,
          description: `${plural(created.leadsWithdrawn, 'lead', 'leads')} withdrawn; ${plural(created.buyersNotified, 'buyer', 'buyers')} told to stop contacting it.`,
          variant: 'success',
        });
      },
      onError: (failure) => {
        const message = errorMessage(failure, 'Please try again.');
        // Already listed (409) or a phone the server cannot read (400) belongs under the phone.
        if (failure instanceof ApiError && (failure.status === 409 || /phone/i.test(message))) {
          setErrors({ phone: message });
          focusFirstError(form, { phone: message });
        } else {
          toast({ title: 'Failed to suppress phone', description: message, variant: 'destructive' });
        }
      },
    });
  };

  return (
    <form className="suppressions__add" onSubmit={submit} noValidate aria-label="Suppress a phone">
      <TextField
        label="Phone"
        name="phone"
        type="tel"
        autoComplete="off"
        value={values.phone}
        error={errors.phone}
        onChange={(e) => set('phone', e.target.value)}
      />
      <TextField
        label="Reason"
        name="reason"
        autoComplete="off"
        className="suppressions__reason"
        hint="E.g. asked not to be called, by phone on 11/20/2026"
        value={values.reason}
        error={errors.reason}
        onChange={(e) => set('reason', e.target.value)}
      />
      <div className="suppressions__submit">
        <Button type="submit" busy={add.isPending}>
          Suppress Phone
        </Button>
      </div>
    </form>
  );
}

function RemoveSuppressionDialog({ suppression, onClose }: { suppression: SuppressionView; onClose: () => void }) {
  const remove = useRemoveSuppression();
  const phone = usPhoneText(suppression.phone);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Remove from Suppression List"
      description={`Remove ${phone}? Leads with this phone can be imported and sold again. Leads already withdrawn stay withdrawn.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Keep Suppressed</Button>
        </DialogClose>
        <Button
          variant="danger"
          busy={remove.isPending}
          onClick={() =>
            remove.mutate(suppression.phone, {
              onSuccess: () => {
                toast({ title: 'Phone removed', description: `${phone} is no longer suppressed.`, variant: 'success' });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to remove phone', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          Remove
        </Button>
      </div>
    </Dialog>
  );
}

import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PurchasedLead } from '@warmline/contracts/catalog';
import {
  LEAD_RETURN_REASONS,
  LEAD_RETURN_REASON_LABELS,
  LEAD_RETURN_STATUS_LABELS,
  LEAD_RETURN_WINDOW_MS,
  type LeadReturnReason,
  type MyLeadReturn,
} from '@warmline/contracts/lead-returns';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { Field } from '../../components/field';
import { apiRequest, errorMessage } from '../../lib/api';
import { usDate } from '../../lib/us-date';
import { agedLeadKeys } from './api';
import './lead-returns.css';

/**
 * My Leads' return of a lead (issue 24, ADR 0034): a Return button while the lead is returnable
 * (within 10 days of purchase, never returned), opening a dialog with the reason and a note; the
 * lead's return status once it has one. The records decide some reasons at once: the dialog then
 * says "Returned — $X refunded"; otherwise "Return requested — an admin will review it".
 */
export function LeadReturnCell({ lead }: { lead: PurchasedLead }) {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<MyLeadReturn | null>(null);
  const shown = answer ?? lead.leadReturn ?? null;
  if (shown && !open) return <LeadReturnStatus leadReturn={shown} />;
  const returnable = Date.now() <= new Date(lead.purchasedAt).getTime() + LEAD_RETURN_WINDOW_MS;
  if (!returnable && !open) return null;
  return (
    <>
      <Button variant="secondary" className="btn--small lead-return-button" aria-label={`Return lead: ${lead.name}`} onClick={() => setOpen(true)}>
        Return
      </Button>
      <LeadReturnDialog lead={lead} open={open} onOpenChange={setOpen} answer={answer} onAnswer={setAnswer} />
    </>
  );
}

/** The pill of a lead's return: Returned, Return requested or Return refused. */
function LeadReturnStatus({ leadReturn: r }: { leadReturn: MyLeadReturn }) {
  return (
    <span className="lead-return-status">
      <span className={`lead-return-pill lead-return-pill--${r.status}`}>{LEAD_RETURN_STATUS_LABELS[r.status]}</span>
      <span className="lead-return-status__detail">
        {r.status === 'accepted'
          ? r.refundedAt
            ? `${r.message} on ${usDate(r.refundedAt)}`
            : `${r.message} (on its way to your card)`
          : r.status === 'refused'
            ? r.decisionReason
            : r.reasonLabel}
      </span>
    </span>
  );
}

function LeadReturnDialog({
  lead,
  open,
  onOpenChange,
  answer,
  onAnswer,
}: {
  lead: PurchasedLead;
  open: boolean;
  onOpenChange(open: boolean): void;
  answer: MyLeadReturn | null;
  onAnswer(answer: MyLeadReturn): void;
}) {
  const [reason, setReason] = useState<LeadReturnReason | ''>('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: (body: { reason: LeadReturnReason; note?: string }) =>
      apiRequest<MyLeadReturn>(`/api/my-leads/${encodeURIComponent(lead.id)}/return`, { method: 'POST', body }),
    onSuccess: onAnswer,
    onError: (failure) => setError(errorMessage(failure, 'The return could not be sent; please try again.')),
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        // Only once the buyer has read the answer: a returned lead then leaves the active list.
        if (!next && answer) void queryClient.invalidateQueries({ queryKey: agedLeadKeys.mine() });
      }}
      title={`Return ${lead.name}`} description={`Bought ${usDate(lead.purchasedAt)} for the price shown in My Leads. A lead can be returned once, within 10 days of purchase.`}>
      {answer ? (
        <>
          <p role="status" className="lead-return-dialog__answer">
            {answer.message}
          </p>
          <div className="dialog__actions">
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </div>
        </>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!reason) {
              setError('Choose why you are returning this lead');
              return;
            }
            send.mutate({ reason, ...(note.trim() ? { note: note.trim() } : {}) });
          }}
        >
          <Field label="Reason" required error={error}>
            {(control) => (
              <select
                {...control}
                className="field__input field__select"
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value as LeadReturnReason | '');
                  setError(undefined);
                }}
              >
                <option value="">Choose a reason…</option>
                {LEAD_RETURN_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {LEAD_RETURN_REASON_LABELS[r]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Note (optional)" hint="What happened when you called, for the admin who reviews it.">
            {(control) => <textarea {...control} className="field__input" rows={3} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />}
          </Field>
          <div className="dialog__actions">
            <DialogClose asChild>
              <Button variant="secondary">Keep Lead</Button>
            </DialogClose>
            <Button type="submit" busy={send.isPending}>
              Return Lead
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

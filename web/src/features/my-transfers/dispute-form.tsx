import { useId, useState } from 'react';
import { DISPUTE_REASONS, DISPUTE_REASON_LABELS, TRANSFER_DISPUTE_DAYS, type DisputeReason, type TransferView } from '@warmline/contracts/live-transfers';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useDisputeTransfer } from './api';

const isReason = (value: string): value is DisputeReason => (DISPUTE_REASONS as readonly string[]).includes(value);

/** Where a transfer's dispute stands, in words ('Waiting for review', 'Accepted: …', 'Refused: …'). */
export function DisputeOutcome({ dispute }: { dispute: NonNullable<TransferView['dispute']> }) {
  const reason = DISPUTE_REASON_LABELS[dispute.reason];
  const text =
    dispute.status === 'pending'
      ? `Disputed (${reason.toLowerCase()}): waiting for review`
      : dispute.status === 'accepted'
        ? `Dispute accepted (${reason.toLowerCase()}): the transfer is back in your balance${dispute.decisionReason ? `. ${dispute.decisionReason}` : ''}`
        : `Dispute refused (${reason.toLowerCase()})${dispute.decisionReason ? `: ${dispute.decisionReason}` : ''}`;
  return (
    <p className={`transfer-dispute transfer-dispute--${dispute.status}`} data-testid="dispute-outcome">
      {text}
    </p>
  );
}

/**
 * Dispute a charged transfer (issue 23 §6): a reason and an optional note. Wrong state, out of
 * hours and duplicate are decided at once from the records; the others wait for an admin. What
 * was decided shows on the transfer's row when the log is read again.
 */
export function DisputeForm({ transfer, onClose }: { transfer: TransferView; onClose: () => void }) {
  const [reason, setReason] = useState<DisputeReason | ''>('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const dispute = useDisputeTransfer();
  const titleId = useId();
  const noteId = useId();

  return (
    <form
      className="transfer-dispute-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!reason) {
          setError('Choose why you dispute this transfer');
          return;
        }
        dispute.mutate(
          { id: transfer.id, body: { reason, ...(note.trim() ? { note: note.trim() } : {}) } },
          {
            onSuccess: () => {
              toast({ title: 'Dispute sent', description: 'Its decision shows on the transfer.', variant: 'success' });
              onClose();
            },
            onError: (failure) => setError(errorMessage(failure, 'The dispute could not be sent; please try again.')) },
        );
      }}
    >
      <h3 id={titleId} className="transfer-dispute-form__title">
        Dispute this transfer
      </h3>
      <p className="field__hint">Within {TRANSFER_DISPUTE_DAYS} days of the call. Wrong state, out of your hours and duplicates are decided at once; the others are reviewed by our team.</p>
      <Field label="Reason" error={error} required>
        {(control) => (
          <select
            {...control}
            name="reason"
            className="field__input field__select"
            value={reason}
            onChange={(e) => {
              setReason(isReason(e.target.value) ? e.target.value : '');
              setError(undefined);
            }}
          >
            <option value="">Choose a reason</option>
            {DISPUTE_REASONS.map((r) => (
              <option key={r} value={r}>
                {DISPUTE_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="field">
        <label className="field__label" htmlFor={noteId}>
          Note (optional)
        </label>
        <textarea id={noteId} name="note" className="field__input" rows={2} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <div className="my-transfers__actions">
        <Button type="submit" busy={dispute.isPending}>
          Send dispute
        </Button>
        <Button variant="ghost" onClick={onClose} disabled={dispute.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

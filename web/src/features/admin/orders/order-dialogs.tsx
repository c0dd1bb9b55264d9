import { useState } from 'react';
import { REASON_REQUIRED_TO_CANCEL_PAID } from '@warmline/contracts/admin-orders';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { useMoveTransferOrder } from './orders-api';
import { NoteField } from '../shared/note-field';

/** Transfer Orders' dialogs (issue 12): complete or cancel an order; a paid one is refunded. Refunds of any order: refund-dialog.tsx. */

/**
 * Mark Completed (issue 22): it cannot be undone and e-mails the agent, so it asks first, says
 * what the agent will receive, and takes an optional note for the e-mail and the audit log.
 */
export function CompleteTransferDialog({
  order,
  onClose,
}: {
  order: { id: string; firstName: string; lastName: string; email: string; totalTransfers: number };
  onClose: () => void;
}) {
  const [note, setNote] = useState('');
  const who = `${order.firstName} ${order.lastName}`.trim() || 'the agent';
  const move = useMoveTransferOrder({
    onSuccess: () => {
      toast({ title: 'Order completed', description: `${who} has been e-mailed.`, variant: 'success' });
      onClose();
    },
    onError: (e) => toast({ title: 'Failed to update order', description: errorMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Mark Order Completed?"
      description={`This cannot be undone: the order can no longer be cancelled or refunded from this screen.`}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          move.mutate({ orderId: order.id, change: { status: 'completed', ...(note.trim() ? { note: note.trim() } : {}) } });
        }}
      >
        <p className="dialog__email" data-testid="email-preview">
          {who} is e-mailed at <strong>{order.email}</strong>: “Your WarmLine live transfers are complete” — all {order.totalTransfers.toLocaleString('en-US')} live transfers of
          the order have been delivered{note.trim() ? ', with your note.' : '.'}
        </p>
        <NoteField value={note} onChange={setNote} who={who} />
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Not Yet</Button>
          </DialogClose>
          <Button type="submit" busy={move.isPending}>
            Mark Completed and E-mail
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Cancelling: a paid order needs a reason and is refunded; a pending one is simply cancelled. */
export function CancelTransferDialog({ orderId, paid, totalLabel, onClose }: { orderId: string; paid: boolean; totalLabel: string; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const move = useMoveTransferOrder({
    onSuccess: () => {
      toast({ title: 'Order cancelled', description: paid ? `${totalLabel} is being refunded to the agent's card.` : 'The agent has been told.', variant: 'success' });
      onClose();
    },
    onError: (e) => toast({ title: 'Failed to cancel order', description: errorMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Cancel Transfer Order"
      description={paid ? `The order is paid: cancelling it refunds ${totalLabel} to the agent's card, and the agent is e-mailed.` : 'The order is not paid yet; the agent is e-mailed.'}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (paid && !reason.trim()) {
            setError(REASON_REQUIRED_TO_CANCEL_PAID);
            return;
          }
          move.mutate({ orderId, change: { status: 'cancelled', ...(reason.trim() ? { reason: reason.trim() } : {}) } });
        }}
      >
        <Field label={paid ? 'Reason (sent to the agent)' : 'Reason (optional, sent to the agent)'} error={error}>
          {(control) => (
            <textarea
              {...control}
              className="field__input"
              rows={3}
              maxLength={500}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Keep Order</Button>
          </DialogClose>
          <Button type="submit" variant="danger" busy={move.isPending}>
            {paid ? 'Cancel and Refund' : 'Cancel Order'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

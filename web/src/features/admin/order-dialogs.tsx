import { useState } from 'react';
import { REASON_REQUIRED_TO_CANCEL_PAID } from '@warmline/contracts/admin-orders';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { Field } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useMoveTransferOrder } from './api';

/** Transfer Orders' dialog (issue 12): cancel an order; a paid one is refunded. Refunds of any order: refund-dialog.tsx. */

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

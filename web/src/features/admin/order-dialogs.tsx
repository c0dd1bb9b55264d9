import { useState } from 'react';
import { adminRefundBody, REASON_REQUIRED_TO_CANCEL_PAID } from '@warmline/contracts/admin-orders';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { Field, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { newIdempotencyKey } from '../payments/api';
import { useMoveTransferOrder, useRefundOrder } from './api';

/** The back office's order dialogs (issue 12): cancel a transfer order, refund an order. */

const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

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

/** Refunding: the whole of what is left, or a part in dollars; a reason is always required. */
export function RefundDialog({ orderId, leftCents, onClose }: { orderId: string; leftCents: number; onClose: () => void }) {
  const [key] = useState(newIdempotencyKey);
  const form = useForm({ amount: (leftCents / 100).toFixed(2), reason: '' });
  const [amountError, setAmountError] = useState<string>();
  const refund = useRefundOrder({
    onSuccess: (answer) => {
      toast({ title: 'Refund issued', description: `${usd(answer.refundedCents)} is on its way back to the buyer's card.`, variant: 'success' });
      onClose();
    },
    onError: (e) => toast({ title: 'Failed to refund order', description: errorMessage(e, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Refund Order" description={`Up to ${usd(leftCents)} can be refunded. The buyer is e-mailed.`}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          const text = form.values.amount.trim();
          const cents = Math.round(Number(text) * 100);
          if (!/^\d+(\.\d{1,2})?$/.test(text) || cents <= 0 || cents > leftCents) {
            event.preventDefault();
            setAmountError(`Enter an amount from $0.01 to ${usd(leftCents)}`);
            return;
          }
          setAmountError(undefined);
          form.handleSubmit(adminRefundBody, (body) =>
            refund.mutate({ orderId, idempotencyKey: key, refund: { ...body, ...(cents === leftCents ? {} : { amountCents: cents }) } }),
          )(event);
        }}
      >
        <TextField label="Amount ($)" inputMode="decimal" {...form.field('amount')} error={amountError} />
        <TextField label="Reason" maxLength={500} {...form.field('reason')} />
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" busy={refund.isPending}>
            Refund
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

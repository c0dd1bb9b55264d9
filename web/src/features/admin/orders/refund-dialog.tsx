import { useState } from 'react';
import { adminRefundBody } from '@warmline/contracts/admin-orders';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { TextField } from '../../../components/field';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { validate } from '../../../lib/form';
import { newIdempotencyKey } from '../../payments/api';
import { usd } from './all-orders-format';
import { useRefundOrder } from './orders-api';
import { parseRefundAmount } from './refund-dialog-amount';

type Scope = 'whole' | 'part';

/**
 * Refunding an order from All Orders (issue 12): the whole of what is left, or a part in
 * dollars; a reason is always required. One idempotency key per dialog, so a double click
 * refunds once. The buyer is e-mailed by the server.
 */
export function RefundDialog({ orderId, leftCents, buyer, onClose }: { orderId: string; leftCents: number; buyer: string; onClose: () => void }) {
  const [key] = useState(newIdempotencyKey);
  const [scope, setScope] = useState<Scope>('whole');
  const [amount, setAmount] = useState((leftCents / 100).toFixed(2));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const refund = useRefundOrder({
    onSuccess: (answer) => {
      toast({ title: 'Refund issued', description: `${usd(answer.refundedCents)} is on its way back to the buyer's card.`, variant: 'success' });
      onClose();
    },
    onError: (e) => toast({ title: 'Failed to refund order', description: errorMessage(e, 'Please try again.'), variant: 'destructive' }),
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Refund Order" description={`${usd(leftCents)} can still be refunded to ${buyer}, who is e-mailed.`}>
      <form
        className="form refund-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsedAmount = scope === 'whole' ? ({ ok: true, amountCents: undefined } as const) : parseRefundAmount(amount, leftCents);
          const body = validate(adminRefundBody, { reason, ...(parsedAmount.ok && parsedAmount.amountCents !== undefined ? { amountCents: parsedAmount.amountCents } : {}) });
          const next = { amount: parsedAmount.ok ? undefined : parsedAmount.error, reason: body.ok ? undefined : body.errors.reason };
          setErrors(next);
          if (!body.ok || !parsedAmount.ok) {
            const first = event.currentTarget.elements.namedItem(next.amount ? 'amount' : 'reason');
            if (first instanceof HTMLElement) first.focus();
            return;
          }
          refund.mutate({ orderId, idempotencyKey: key, refund: body.data });
        }}
      >
        <fieldset className="refund-form__scope">
          <legend className="field__label">How much</legend>
          <label className="refund-form__choice">
            <input type="radio" name="scope" value="whole" checked={scope === 'whole'} onChange={() => setScope('whole')} />
            <span>Everything left ({usd(leftCents)})</span>
          </label>
          <label className="refund-form__choice">
            <input type="radio" name="scope" value="part" checked={scope === 'part'} onChange={() => setScope('part')} />
            <span>Part of it</span>
          </label>
        </fieldset>
        {scope === 'part' ? (
          <TextField
            label="Amount ($)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            hint={`From $0.01 to ${usd(leftCents)}`}
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setErrors((x) => ({ ...x, amount: undefined }));
            }}
            error={errors.amount}
          />
        ) : null}
        <TextField
          label="Reason"
          name="reason"
          maxLength={500}
          autoComplete="off"
          hint="Kept in the audit log"
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setErrors((x) => ({ ...x, reason: undefined }));
          }}
          error={errors.reason}
        />
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

import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { priceTextToCents } from '@warmline/contracts/transfers';
import { PaymentForm } from '../payments/payment-form';
import { clearPendingTransferOrder, type PendingTransferOrder } from './pending-order';
import { showTransferPaymentSuccess } from './payment-toasts';
import { TransferSummary } from './transfer-summary';

/**
 * Paying a transfer order (the dashboard's payment step and /transfer-checkout): its summary
 * beside the card form, billed to the agent's name. Once paid, the stored order is forgotten
 * and the agent goes to /thank-you with its order number (the receipt and the way back to the dashboard). `children` go under the card form (e.g. 'Back to Form').
 */
export function TransferPayment({ user, order, children }: { user: PublicUser; order: PendingTransferOrder; children?: ReactNode }) {
  const navigate = useNavigate();
  return (
    <div className="transfer-pay">
      <TransferSummary order={order} />
      <div className="card transfer-pay__card">
        <h2 className="transfer-pay__title">Payment Information</h2>
        <PaymentForm
          clientSecret={order.clientSecret}
          amountCents={priceTextToCents(order.totalPrice) ?? 0}
          billingFields={{ name: 'required', email: 'hidden', phone: 'hidden' }}
          defaultBilling={{ name: `${user.firstName} ${user.lastName}`.trim() }}
          onSuccess={() => {
            clearPendingTransferOrder();
            showTransferPaymentSuccess();
            void navigate(`/thank-you?order=${encodeURIComponent(order.orderId)}`, { replace: true });
          }}
        />
        {children}
      </div>
    </div>
  );
}

import { stateName } from '@warmline/contracts/us-states';
import { OrderSummary } from '../../components/order-summary';
import { formatDecimalUsd } from './order-format';
import type { PendingTransferOrder } from './pending-order';
import { TRANSFERS_PER_DAY_LABEL } from './transfer-order-form';

/** The order summary of spec §2 Transfer checkout: total transfers, transfers per day, states, total. */
export function TransferSummary({ order }: { order: PendingTransferOrder }) {
  const { transferDetails: details } = order;
  return (
    <OrderSummary
      rows={[
        { term: 'Total transfers', detail: details.totalTransfers.toLocaleString('en-US') },
        { term: TRANSFERS_PER_DAY_LABEL, detail: details.transfersPerDay.toLocaleString('en-US') },
        { term: 'States', detail: details.states.map(stateName).join(', ') },
        { term: 'Price per transfer', detail: formatDecimalUsd(order.unitPrice) },
      ]}
      total={formatDecimalUsd(order.totalPrice)}
      totalTestId="transfer-summary-total"
    />
  );
}

import { stateName } from '@warmline/contracts/transfers';
import { formatDecimalUsd } from './order-format';
import type { PendingTransferOrder } from './pending-order';

/** The order summary of spec §2 Transfer checkout: total transfers, transfers per day, states, total. */
export function TransferSummary({ order, headingLevel = 2 }: { order: PendingTransferOrder; headingLevel?: 2 | 3 }) {
  const { transferDetails: details } = order;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="transfer-summary" aria-labelledby="transfer-summary-title">
      <Heading id="transfer-summary-title" className="transfer-summary__title">
        Order Summary
      </Heading>
      <dl className="transfer-summary__rows">
        <div>
          <dt>Total transfers</dt>
          <dd>{details.totalTransfers.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Transfers per day</dt>
          <dd>{details.transfersPerDay.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>States</dt>
          <dd>{details.states.map(stateName).join(', ')}</dd>
        </div>
        <div>
          <dt>Price per transfer</dt>
          <dd>{formatDecimalUsd(order.unitPrice)}</dd>
        </div>
        <div className="transfer-summary__total">
          <dt>Total</dt>
          <dd data-testid="transfer-summary-total">{formatDecimalUsd(order.totalPrice)}</dd>
        </div>
      </dl>
    </section>
  );
}

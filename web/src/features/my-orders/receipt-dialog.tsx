import type { MyOrder, MyOrderReceipt } from '@warmline/contracts/my-orders';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { ORDER_STATUS_LABELS } from '../admin/orders/all-orders-format';
import { usDate } from '../transfers/order-format';
import { cardLine, MY_PRODUCT_LABELS, receiptTotals, transferSummary } from './my-orders-format';

/**
 * One order's receipt (issue 12): what was bought line by line, when and how it was paid, and
 * any refund. Printable: the page around it is hidden when printing (my-orders.css).
 */
export function ReceiptDialog({ order, receipt, onClose }: { order: MyOrder; receipt: MyOrderReceipt; onClose: () => void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Receipt" description={`WarmLine · ${MY_PRODUCT_LABELS[order.product]}`}>
      <div className="receipt">
        <dl className="receipt__facts">
          <div>
            <dt>Order</dt>
            <dd className="receipt__id">{order.id}</dd>
          </div>
          <div>
            <dt>Paid on</dt>
            <dd>{usDate(receipt.paidAt)}</dd>
          </div>
          <div>
            <dt>Paid with</dt>
            <dd>{cardLine(receipt.cardLast4)}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{ORDER_STATUS_LABELS[order.status]}</dd>
          </div>
        </dl>
        {order.transfer ? <p className="receipt__note">{transferSummary(order.transfer)}</p> : null}
        <table className="receipt__lines">
          <caption className="visually-hidden">What was bought</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" className="receipt__num">
                Qty
              </th>
              <th scope="col" className="receipt__num">
                Each
              </th>
              <th scope="col" className="receipt__num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {receipt.lines.map((line, i) => (
              <tr key={`${line.item}-${i}`}>
                <td>{line.item}</td>
                <td className="receipt__num">{line.quantity.toLocaleString('en-US')}</td>
                <td className="receipt__num">{formatUsd(line.unitPriceCents)}</td>
                <td className="receipt__num">{formatUsd(line.amountCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {receiptTotals(receipt).map((total) => (
              <tr key={total.label}>
                <th scope="row" colSpan={3}>
                  {total.label}
                </th>
                <td className="receipt__num">{total.value}</td>
              </tr>
            ))}
          </tfoot>
        </table>
      </div>
      <div className="dialog__actions receipt__actions">
        <DialogClose asChild>
          <Button variant="secondary">Close</Button>
        </DialogClose>
        <Button onClick={() => window.print()}>Print</Button>
      </div>
    </Dialog>
  );
}

import type { TransferView } from '@warmline/contracts/live-transfers';
import { transferStatusText } from './format';
import './transfer-status.css';

/** 'Charged $37.00', 'Buffer protected — not charged', … as a pill coloured by status. */
export function TransferStatusBadge({ transfer }: { transfer: Pick<TransferView, 'status' | 'chargedCents'> }) {
  return (
    <span className={`transfer-status transfer-status--${transfer.status}`} data-testid="transfer-status">
      {transferStatusText(transfer)}
    </span>
  );
}

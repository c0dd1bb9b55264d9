import { useTransferBalance } from './api';
import './my-transfers.css';

/**
 * The Buy Call Transfers intro's line about the balance (issue 23 §5): 'You have 12 transfers
 * left', linking to My Transfers. Nothing while it loads or when the transfers service does not
 * answer: buying must not wait on it.
 */
export function TransferBalanceNote({ onOpen }: { onOpen: () => void }) {
  const balance = useTransferBalance();
  if (!balance.data) return null;
  const n = balance.data.transfers;
  return (
    <p className="transfer-balance-note" data-testid="intro-transfer-balance">
      You have {n.toLocaleString('en-US')} {n === 1 ? 'transfer' : 'transfers'} left.{' '}
      <a
        className="link"
        href="/dashboard?view=my-transfers"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          onOpen();
        }}
      >
        See My Transfers
      </a>
    </p>
  );
}

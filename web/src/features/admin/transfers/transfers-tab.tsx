import { useBusinessTimeZone } from '../../../lib/site-config';
import { TransferAgents } from './transfers-agents';
import { TransferDisputes } from './transfers-disputes';
import { TransferRevenue } from './transfers-revenue';
import { TransfersToday } from './transfers-today';
import './transfers-tab.css';

/**
 * Transfers (issue 23 §7): today's transfers as they happen, the disputes to decide, every agent's
 * balance, cap, hours and pause (and why one with transfers left gets none now), and revenue earned
 * by delivered transfers beside the cash taken. Times on the business's clock, as in the rest of
 * the back office.
 */
export function TransfersTab() {
  const zone = useBusinessTimeZone();
  return (
    <div className="transfers-admin">
      <h2 className="visually-hidden">Transfers</h2>
      <TransfersToday zone={zone} />
      <TransferDisputes zone={zone} />
      <TransferAgents zone={zone} />
      <TransferRevenue />
    </div>
  );
}

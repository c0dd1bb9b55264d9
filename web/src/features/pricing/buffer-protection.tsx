import { BUFFER_SECONDS } from '@warmline/contracts/pricing';
import { ShieldIcon } from '../../components/icons';
import './buffer-protection.css';

/** The buffer policy shared by every tier (spec §1), as the pricing pages and checkouts show it. */
export const BUFFER_TITLE = `${BUFFER_SECONDS}-Second Buffer Protection`;
const BUFFER_MINUTES = BUFFER_SECONDS / 60;

export function BufferProtectionCard({ compact = false }: { compact?: boolean }) {
  return (
    <section className={compact ? 'buffer-card buffer-card--compact' : 'buffer-card'} aria-labelledby={compact ? undefined : 'buffer-title'}>
      <span className="buffer-card__icon" aria-hidden="true">
        <ShieldIcon size={24} />
      </span>
      <div>
        {compact ? <h3 className="buffer-card__title">{BUFFER_TITLE}</h3> : <h2 id="buffer-title" className="buffer-card__title">{BUFFER_TITLE}</h2>}
        <p className="buffer-card__text">
          You only pay for real conversations: if a prospect does not stay on the call for more than {BUFFER_SECONDS} seconds (
          {BUFFER_MINUTES} minutes), the transfer is not charged.
        </p>
      </div>
    </section>
  );
}

/** The longer explanation under the cards of each pricing page. */
export function BufferExplanation() {
  return (
    <section className="pricing-explainer" aria-labelledby="buffer-how">
      <h2 id="buffer-how">How the {BUFFER_SECONDS}-second minimum call duration policy works</h2>
      <ol>
        <li>A pre-screened, warmed prospect is transferred live to your agent.</li>
        <li>
          We time the call from the moment your agent is connected. If the prospect hangs up or drops within {BUFFER_SECONDS}{' '}
          seconds, that transfer does not count.
        </li>
        <li>Only calls that last more than {BUFFER_MINUTES} minutes are billed against your package.</li>
      </ol>
    </section>
  );
}

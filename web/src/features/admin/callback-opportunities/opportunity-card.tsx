import { useId } from 'react';
import type { CallbackOpportunity } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { usPhoneText } from '../../../lib/phone-text';
import { SOURCE_LABEL, outcomeText } from '../../callbacks/format';
import { usDateTime } from '../../../lib/us-date';
import { EvidenceLink } from '../../compliance/evidence-link';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { OutsideCallingHoursFlag } from '../../compliance/calling-hours-badge';
import { STATUS_LABEL } from './opportunity-status';
import { StateSetter } from './state-setter';

export function OpportunityCard({ opportunity: o, onAssign }: { opportunity: CallbackOpportunity; onAssign: () => void }) {
  const titleId = useId();
  const zone = useBusinessTimeZone();
  const name = `${o.firstName} ${o.lastName}`.trim();
  return (
    <li className="card callback-card" data-testid="callback-opportunity" aria-labelledby={titleId}>
      <div className="callback-card__head">
        <h3 id={titleId} className="callback-card__name">
          {name}
        </h3>
        <span className={`callback-status callback-status--${o.status}`}>{STATUS_LABEL[o.status]}</span>
      </div>
      <dl className="callback-card__facts">
        <div>
          <dt>Phone</dt>
          <dd>{usPhoneText(o.phone)}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{o.state ?? <StateSetter opportunity={o} />}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>${o.price}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>{o.source === 'vendor' && o.vendorName ? `Vendor: ${o.vendorName}` : SOURCE_LABEL[o.source]}</dd>
        </div>
        <div>
          <dt>Callback time</dt>
          <dd>{o.callbackTime ? usDateTime(o.callbackTime, zone) : 'Any time'}<OutsideCallingHoursFlag outside={o.callbackTimeOutsideCallingHours} /></dd>
        </div>
        {o.status === 'available' || o.status === 'expired' ? (
          <div>
            <dt>{o.status === 'expired' ? 'Expired' : 'Expires'}</dt>
            <dd>{usDateTime(o.expiresAt, zone)}</dd>
          </div>
        ) : null}
        {o.callOutcome ? (
          <div>
            <dt>Outcome</dt>
            <dd>{outcomeText(o.callOutcome)}</dd>
          </div>
        ) : null}
        {o.leadQuality || o.interestLevel ? (
          <div>
            <dt>Quality / interest</dt>
            <dd>{[o.leadQuality, o.interestLevel].map((v) => v ?? '—').join(' / ')}</dd>
          </div>
        ) : null}
        {o.suppressedAt ? (
          <div>
            <dt>Suppressed</dt>
            <dd>{usDateTime(o.suppressedAt, zone)}</dd>
          </div>
        ) : null}
        {o.assignedAt ? (
          <div>
            <dt>Assigned</dt>
            <dd>{usDateTime(o.assignedAt, zone)}</dd>
          </div>
        ) : null}
      </dl>
      {o.status === 'suppressed' ? <p className="callback-card__note">The phone is on the suppression list: this opportunity is not sold.</p> : null}
      {o.transcript ? (
        <details className="callback-card__transcript">
          <summary>Transcript</summary>
          <p>{o.transcript}</p>
        </details>
      ) : null}
      {o.assignedAt ? <EvidenceLink kind="callback" admin id={o.id} name={name} /> : null}
      {o.status === 'available' ? (
        <div className="callback-card__actions">
          <Button variant="secondary" className="btn--small" onClick={onAssign} aria-label={`Assign ${name}`}>
            Assign
          </Button>
        </div>
      ) : null}
    </li>
  );
}

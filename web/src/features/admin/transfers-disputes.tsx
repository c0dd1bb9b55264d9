import { useId, useState } from 'react';
import { DISPUTE_MESSAGES, type AdminTransferDispute } from '@warmline/contracts/live-transfers';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { usPhoneText } from '../../lib/phone-text';
import { usDateTime } from '../../lib/us-date';
import { durationText } from '../my-transfers/format';
import { TransferStatusBadge } from '../my-transfers/transfer-status-badge';
import { useDecideDispute, usePendingDisputes } from './transfers-api';

/** The disputes waiting for an admin, oldest first: Accept (the transfer credited back) or Refuse with a reason. */
export function TransferDisputes({ zone }: { zone: string }) {
  const disputes = usePendingDisputes();
  const titleId = useId();
  return (
    <section className="card transfers-admin__section" aria-labelledby={titleId}>
      <h3 id={titleId} className="transfers-admin__title">
        Disputes to review
      </h3>
      {disputes.isPending ? (
        <Spinner label="Loading disputes…" showLabel />
      ) : disputes.isError ? (
        <LoadError what="transfer disputes" error={disputes.error} onRetry={() => void disputes.refetch()} />
      ) : disputes.data.length === 0 ? (
        <p className="admin-empty">No dispute waits for a decision.</p>
      ) : (
        <ul className="transfers-admin__disputes">
          {disputes.data.map((d) => (
            <DisputeCard key={d.id} dispute={d} zone={zone} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DisputeCard({ dispute: d, zone }: { dispute: AdminTransferDispute; zone: string }) {
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = useDecideDispute();
  const titleId = useId();
  const t = d.transfer;
  const prospect = `${t.firstName} ${t.lastName}`.trim();
  const who = d.agent.name || 'An agent';

  const send = (decision: 'accept' | 'refuse') => {
    if (decision === 'refuse' && !reason.trim()) {
      setError(DISPUTE_MESSAGES.refuseReason);
      return;
    }
    decide.mutate(
      { id: d.id, decision, ...(decision === 'refuse' ? { reason: reason.trim() } : {}) },
      {
        onSuccess: () =>
          toast({
            title: decision === 'accept' ? 'Dispute accepted' : 'Dispute refused',
            description: decision === 'accept' ? `The transfer is credited back to ${who}.` : `${who} is told why by e-mail.`,
            variant: 'success',
          }),
        onError: (failure) => setError(errorMessage(failure, 'The decision could not be saved; please try again.')),
      },
    );
  };

  return (
    <li className="transfers-admin__dispute" aria-labelledby={titleId} data-testid="transfer-dispute">
      <h4 id={titleId} className="transfers-admin__agent-name">
        {who}: {d.reasonLabel}
      </h4>
      <p className="transfers-admin__muted">
        Opened {usDateTime(d.openedAt, zone)}
        {prospect ? ` · ${prospect}` : ''}, {usPhoneText(t.phone)}, {t.state}
        {t.durationSeconds !== null ? ` · ${durationText(t.durationSeconds)}` : ''}
      </p>
      <TransferStatusBadge transfer={t} />
      {d.note ? <p className="transfers-admin__note">“{d.note}”</p> : null}
      {refusing ? (
        <TextField
          label="Why is it refused?"
          name="reason"
          value={reason}
          maxLength={500}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
          error={error}
          hint="The agent reads this in their e-mail and on My Transfers."
        />
      ) : error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="transfers-admin__actions">
        {refusing ? (
          <>
            <Button variant="danger" className="btn--small" busy={decide.isPending} onClick={() => send('refuse')}>
              Refuse dispute
            </Button>
            <Button variant="ghost" className="btn--small" disabled={decide.isPending} onClick={() => setRefusing(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button className="btn--small" busy={decide.isPending} aria-label={`Accept dispute: ${who}`} onClick={() => send('accept')}>
              Accept
            </Button>
            <Button variant="secondary" className="btn--small" disabled={decide.isPending} aria-label={`Refuse dispute: ${who}`} onClick={() => setRefusing(true)}>
              Refuse
            </Button>
          </>
        )}
      </div>
    </li>
  );
}

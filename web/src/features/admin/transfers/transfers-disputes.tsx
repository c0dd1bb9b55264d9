import { useId } from 'react';
import { DISPUTE_MESSAGES, type AdminTransferDispute } from '@warmline/contracts/live-transfers';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { usPhoneText } from '../../../lib/phone-text';
import { usDateTime } from '../../../lib/us-date';
import { durationText } from '../../my-transfers/format';
import { TransferStatusBadge } from '../../my-transfers/transfer-status-badge';
import { AcceptOrRefuse } from '../shared/accept-or-refuse';
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
  const decide = useDecideDispute();
  const titleId = useId();
  const t = d.transfer;
  const prospect = `${t.firstName} ${t.lastName}`.trim();
  const who = d.agent.name || 'An agent';

  const send = (decision: 'accept' | 'refuse', reason?: string) =>
    decide.mutate(
      { id: d.id, decision, ...(reason ? { reason } : {}) },
      {
        onSuccess: () =>
          toast({
            title: decision === 'accept' ? 'Dispute accepted' : 'Dispute refused',
            description: decision === 'accept' ? `The transfer is credited back to ${who}.` : `${who} is told why by e-mail.`,
            variant: 'success',
          }),
      },
    );

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
      <AcceptOrRefuse
        what="dispute"
        subject={who}
        hint="The agent reads this in their e-mail and on My Transfers."
        missingReason={DISPUTE_MESSAGES.refuseReason}
        busy={decide.isPending}
        failure={decide.error ? errorMessage(decide.error, 'The decision could not be saved; please try again.') : undefined}
        onEdit={() => decide.reset()}
        onDecide={send}
        className="transfers-admin__actions"
      />
    </li>
  );
}

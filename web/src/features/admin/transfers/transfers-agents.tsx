import { useId, useState } from 'react';
import { IDLE_REASON_LABELS, timeZoneName, type AdminTransferAgent } from '@warmline/contracts/live-transfers';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { FieldError, TextField } from '../../../components/field';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { usDateTime } from '../../../lib/us-date';
import { hoursLines } from '../../my-transfers/format';
import { useAdjustTransferCredits, useTransferAgents } from './transfers-api';

/**
 * Every agent with transfers or settings: balance, today against the cap, hours and pause, and
 * why one with transfers left can take none now (issue 23 §7); each with Adjust balance.
 */
export function TransferAgents({ zone }: { zone: string }) {
  const agents = useTransferAgents();
  const [adjusting, setAdjusting] = useState<AdminTransferAgent | null>(null);
  const titleId = useId();
  return (
    <section className="card transfers-admin__section" aria-labelledby={titleId}>
      <h3 id={titleId} className="transfers-admin__title">
        Agents
      </h3>
      {agents.isPending ? (
        <Spinner label="Loading agents…" showLabel />
      ) : agents.isError ? (
        <LoadError what="transfer agents" error={agents.error} onRetry={() => void agents.refetch()} />
      ) : agents.data.length === 0 ? (
        <p className="admin-empty">No agent has transfers or delivery settings yet.</p>
      ) : (
        <ul className="transfers-admin__agents">
          {agents.data.map((agent) => (
            <AgentCard key={agent.id} agent={agent} zone={zone} onAdjust={() => setAdjusting(agent)} />
          ))}
        </ul>
      )}
      {adjusting ? <AdjustBalanceDialog agent={adjusting} onClose={() => setAdjusting(null)} /> : null}
    </section>
  );
}

function AgentCard({ agent: a, zone, onAdjust }: { agent: AdminTransferAgent; zone: string; onAdjust: () => void }) {
  const titleId = useId();
  const hours = hoursLines(a.hours);
  // Idle only matters for an agent who has transfers to deliver.
  const idle = a.balance > 0 && a.idleReasons.length > 0;
  return (
    <li className="transfers-admin__agent" aria-labelledby={titleId} data-testid="transfer-agent">
      <div className="transfers-admin__agent-head">
        <h4 id={titleId} className="transfers-admin__agent-name">
          {a.name}
        </h4>
        <span className={a.paused ? 'transfers-admin__pill transfers-admin__pill--paused' : 'transfers-admin__pill'}>{a.paused ? 'Paused' : 'Active'}</span>
      </div>
      <dl className="transfers-admin__facts">
        <div>
          <dt>Balance</dt>
          <dd data-testid="agent-balance">{a.balance.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>In flight</dt>
          <dd>{a.inFlight}</dd>
        </div>
        <div>
          <dt>Today</dt>
          <dd>
            {a.today}
            {a.dailyCap !== null ? ` of ${a.dailyCap}` : ''}
          </dd>
        </div>
        <div>
          <dt>At once</dt>
          <dd>{a.atOnce}</dd>
        </div>
        <div>
          <dt>Zone</dt>
          <dd>{a.timeZone ? timeZoneName(a.timeZone) : '—'}</dd>
        </div>
        <div>
          <dt>Last transfer</dt>
          <dd>{a.lastTransferAt ? usDateTime(a.lastTransferAt, zone) : 'Never'}</dd>
        </div>
        <div className="transfers-admin__fact--wide">
          <dt>States</dt>
          <dd>{a.states.length ? a.states.join(', ') : 'None'}</dd>
        </div>
        <div className="transfers-admin__fact--wide">
          <dt>Hours</dt>
          <dd>{hours.length ? hours.join(' · ') : 'None'}</dd>
        </div>
      </dl>
      <p className={idle ? 'transfers-admin__idle transfers-admin__idle--yes' : 'transfers-admin__idle'} data-testid="agent-idle">
        {idle
          ? `Can take no transfer now: ${a.idleReasons.map((r) => IDLE_REASON_LABELS[r]).join(', ')}`
          : a.balance > 0
            ? 'Can take a transfer now'
            : 'No transfers left'}
      </p>
      <Button variant="secondary" className="btn--small" aria-label={`Adjust balance: ${a.name}`} onClick={onAdjust}>
        Adjust balance
      </Button>
    </li>
  );
}

/** Credit (or, negative, take back) transfers with a reason; the balance never goes below zero (the server says so). */
function AdjustBalanceDialog({ agent, onClose }: { agent: AdminTransferAgent; onClose: () => void }) {
  const [transfers, setTransfers] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ transfers?: string; reason?: string; form?: string }>({});
  const adjust = useAdjustTransferCredits();
  const formErrorId = useId();
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`Adjust balance: ${agent.name}`}
      description={`${agent.balance.toLocaleString('en-US')} transfers left now. A negative number takes transfers back.`}
    >
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const n = Number(transfers.trim());
          const found: typeof errors = {};
          if (!transfers.trim() || !Number.isInteger(n) || n === 0) found.transfers = 'Enter a whole number of transfers, not 0 (negative to take back)';
          if (!reason.trim()) found.reason = 'Give a reason for the adjustment';
          setErrors(found);
          if (found.transfers || found.reason) return;
          adjust.mutate(
            { userId: agent.id, transfers: n, reason: reason.trim() },
            {
              onSuccess: () => {
                toast({ title: 'Balance adjusted', description: `${n > 0 ? `${n} credited to` : `${-n} taken back from`} ${agent.name}.`, variant: 'success' });
                onClose();
              },
              onError: (failure) => setErrors({ form: errorMessage(failure, 'The balance could not be adjusted; please try again.') }),
            },
          );
        }}
      >
        <TextField label="Transfers" name="transfers" inputMode="numeric" value={transfers} onChange={(e) => setTransfers(e.target.value)} error={errors.transfers} hint="e.g. 5 to credit, -2 to take back" required />
        <TextField label="Reason" name="reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} error={errors.reason} required />
        <FieldError id={formErrorId} error={errors.form} />
        <div className="transfers-admin__actions">
          <Button type="submit" busy={adjust.isPending}>
            Save adjustment
          </Button>
          <DialogClose asChild>
            <Button variant="ghost">Cancel</Button>
          </DialogClose>
        </div>
      </form>
    </Dialog>
  );
}

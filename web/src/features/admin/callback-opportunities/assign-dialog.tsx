import { useId, useState } from 'react';
import type { CallbackAgent, CallbackOpportunity } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { useCallbackAgents, useAssignOpportunity } from './callback-opportunities-api';

/** Agents who work the opportunity's state and have a balance first; then by balance. */
function pickerOrder(state: string | null) {
  const rank = (a: CallbackAgent) => (state !== null && a.states.includes(state) ? 0 : 1) * 2 + (a.balance > 0 ? 0 : 1);
  return (a: CallbackAgent, b: CallbackAgent) => rank(a) - rank(b) || b.balance - a.balance;
}

/**
 * Assign by hand (issue 22): only agents who can receive call-backs (they bought Call-Backs), each
 * with their call-back balance and working states; those in the opportunity's state first.
 */
export function AssignDialog({ opportunity, onClose }: { opportunity: CallbackOpportunity; onClose: () => void }) {
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const agents = useCallbackAgents();
  const assign = useAssignOpportunity();
  const name = `${opportunity.firstName} ${opportunity.lastName}`.trim();
  const term = typed.trim().toLowerCase();
  const shown = (agents.data ?? [])
    .filter((a) => term === '' || `${a.firstName} ${a.lastName} ${a.email}`.toLowerCase().includes(term))
    .sort(pickerOrder(opportunity.state));

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Assign Call-back" description={`Give ${name} (${opportunity.state ?? 'no state'}) to an agent by hand.`}>
      <div className="field">
        <label className="field__label" htmlFor={searchId}>
          Find an agent (name or e-mail)
        </label>
        <input id={searchId} type="search" className="field__input" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
      </div>
      <p className="callbacks-table__sub">
        Agents who bought Call-Backs. One call-back of the agent&apos;s balance pays for it; an agent without a balance gets it anyway.
      </p>
      {agents.isPending ? (
        <Spinner label="Loading agents…" />
      ) : agents.isError ? (
        <p className="field__error" role="alert">
          Failed to fetch agents: {errorMessage(agents.error, 'the server did not answer')}.
        </p>
      ) : shown.length === 0 ? (
        <p className="admin-empty">{term ? 'No agent matches.' : 'No agent has bought call-backs yet.'}</p>
      ) : (
        <ul className="assign-list" data-testid="assign-agents">
          {shown.map((a) => {
            const who = `${a.firstName} ${a.lastName}`.trim() || a.email;
            const inState = opportunity.state !== null && a.states.includes(opportunity.state);
            return (
              <li key={a.userId} className="assign-list__item" data-testid="assign-agent">
                <span className="assign-list__who">
                  <strong>{who}</strong>
                  <span className="callbacks-table__sub">{a.email}</span>
                  <span className="callbacks-table__sub">
                    Balance: {a.balance.toLocaleString('en-US')} call-back{a.balance === 1 ? '' : 's'} · States: {a.states.length > 0 ? a.states.join(', ') : 'none'}
                    {opportunity.state !== null && !inState ? ` (not ${opportunity.state})` : ''}
                  </span>
                </span>
                <Button
                  className="btn--small"
                  busy={assign.isPending && assign.variables?.userId === a.userId}
                  disabled={assign.isPending}
                  aria-label={`Assign to ${who}`}
                  onClick={() =>
                    assign.mutate(
                      { id: opportunity.id, userId: a.userId },
                      {
                        onSuccess: () => {
                          toast({ title: 'Call-back assigned', description: `${name} is now ${who}'s.`, variant: 'success' });
                          onClose();
                        },
                        onError: (failure) => toast({ title: 'Failed to assign call-back', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
                      },
                    )
                  }
                >
                  Assign
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}

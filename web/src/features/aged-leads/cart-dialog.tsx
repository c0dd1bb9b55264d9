import { useEffect } from 'react';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { cartTotalCents, type Cart } from './lead-selection';

/**
 * The cart reviewed: every selected lead, whatever page or filter it was chosen on, each with a
 * Remove button, the total, Clear and Buy. Opening it asks the server again which leads are
 * still for sale, so a lead sold meanwhile leaves with the notice shown here.
 */
export function CartDialog({
  cart,
  notice,
  buying,
  onRecheck,
  onRemove,
  onClear,
  onBuy,
  onClose,
}: {
  cart: Cart;
  notice: string | null;
  buying: boolean;
  onRecheck(): Promise<void>;
  onRemove(id: string): void;
  onClear(): void;
  onBuy(): void;
  onClose(): void;
}) {
  useEffect(() => {
    void onRecheck();
  }, [onRecheck]);
  const leads = [...cart.values()];
  const count = leads.length;
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Your selected leads"
      description={`${count} ${count === 1 ? 'lead' : 'leads'}, ${formatUsd(cartTotalCents(cart))} at today's prices. Names and numbers show in full once you buy.`}
    >
      {notice ? (
        <p className="cart-review__notice" role="status">
          {notice}
        </p>
      ) : null}
      {count === 0 ? (
        <p className="cart-review__empty">Nothing is selected. Tick leads in the list, or select all that match a filter.</p>
      ) : (
        <ul className="cart-review" aria-label="Selected leads">
          {leads.map((lead) => (
            <li key={lead.id} className="cart-review__lead">
              <span className="cart-review__name">{lead.name}</span>
              <span className="cart-review__meta">
                {lead.state}
                {lead.zip ? ` ${lead.zip}` : ''} · {lead.actualAge} days
              </span>
              <span className="cart-review__price">{formatUsd(lead.priceCents)}</span>
              <Button variant="ghost" className="btn--small cart-review__remove" onClick={() => onRemove(lead.id)} aria-label={`Remove ${lead.name}, ${lead.state}, from the selection`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="cart-review__actions">
        {count > 0 ? (
          <Button variant="ghost" onClick={onClear}>
            Clear all
          </Button>
        ) : null}
        <Button onClick={onBuy} busy={buying} disabled={count === 0}>
          {buying ? 'Reserving…' : `Buy ${count} ${count === 1 ? 'lead' : 'leads'} - ${formatUsd(cartTotalCents(cart))}`}
        </Button>
      </div>
    </Dialog>
  );
}

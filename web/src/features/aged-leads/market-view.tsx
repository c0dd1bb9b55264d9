import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { BulkPurchaseResponse, LeadsUnavailableResponse, MarketLead } from '@warmline/contracts/catalog';
import { AGED_LEAD_PRICES_CENTS, formatUsd } from '@warmline/contracts/pricing';
import type { PublicUser } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { agedLeadKeys, fetchMatchingLeads, useBulkPurchase, useMarketLeads, waitUntilSold } from './api';
import { CartDialog } from './cart-dialog';
import { formatConsentDate } from './consent-format';
import { FilterBox, NoFilterMatch } from './filter-box';
import { CART_LIMIT, cartTotalCents, pageSelectionState } from './lead-selection';
import { Pager } from '../../components/pager';
import { PhoneText } from './phone-text';
import { DncBadge, HideDncMatches } from '../compliance/dnc-badge';
import { PurchaseDialog } from './purchase-dialog';
import { useLeadCart } from './use-lead-cart';
import './aged-leads.css';
import { CallingHoursBadge } from '../compliance/calling-hours-badge';

/**
 * Buy Aged Leads (spec §2, §4, §5): the market's leads, masked, 50 a page, each with its
 * 'Consent on file' badge where it has one, with the filter and the bulk purchase with the card
 * form. The selection is a cart (issue 17, overriding spec §4's "changing page or filter clears
 * the selection"): it keeps its leads across pages, filters and reloads, shows its count and
 * total in a bar that stays on screen, and can be reviewed, emptied, or filled with every lead
 * of the filter up to the purchase limit.
 */
export function MarketView({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [hideDncMatches, setHideDncMatches] = useState(false);
  const cart = useLeadCart(user.id);
  const [reviewing, setReviewing] = useState(false);
  const [selectingAll, setSelectingAll] = useState(false);
  const [purchase, setPurchase] = useState<BulkPurchaseResponse | null>(null);
  const [finishing, setFinishing] = useState(false);
  const market = useMarketLeads(page, filter, hideDncMatches);
  const tableTop = useRef<HTMLHeadingElement>(null);
  /** The leads of the purchase under way: they leave the cart once paid. */
  const buying = useRef<string[]>([]);

  const leads = market.data?.leads ?? [];
  const total = market.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / (market.data?.pageSize ?? 50)));
  const selectedCount = cart.cart.size;
  const totalCents = cartTotalCents(cart.cart);

  // A cart kept from another visit: leads sold or withdrawn since then leave it, with a notice.
  const { recheck } = cart;
  useEffect(() => {
    void recheck();
  }, [recheck, user.id]);

  const changePage = (next: number) => {
    if (next < 1 || next > totalPages || next === page) return;
    setPage(next);
    tableTop.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const changeFilter = useCallback((next: string) => {
    setFilter(next.trim());
    setPage(1);
  }, []);

  // A page that emptied (leads sold meanwhile) steps back to the last page there is.
  useEffect(() => {
    if (market.data && market.data.leads.length === 0 && page > 1 && total > 0) setPage(totalPages);
  }, [market.data, page, total, totalPages]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: agedLeadKeys.all });

  const selectAllMatching = async () => {
    setSelectingAll(true);
    try {
      const matching = await fetchMatchingLeads(filter, hideDncMatches);
      cart.add(matching.leads);
    } catch (error) {
      toast({ title: 'Could not select the leads', description: errorMessage(error, 'the server did not answer'), variant: 'destructive' });
    } finally {
      setSelectingAll(false);
    }
  };

  const bulkPurchase = useBulkPurchase({
    onSuccess: (answer) => {
      setReviewing(false);
      setPurchase(answer);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        const body = parseUnavailable(error.bodyText);
        const gone = body?.unavailableLeadIds ?? [];
        cart.remove(gone, 'gone');
        toast({
          title: 'Bulk Purchase Failed',
          description: `${body?.error ?? 'Some leads are no longer available'}. ${gone.length === 1 ? 'That lead was' : `Those ${gone.length} leads were`} removed from your selection.`,
          variant: 'destructive',
        });
        void refresh();
        return;
      }
      toast({ title: 'Bulk Purchase Failed', description: errorMessage(error, 'Failed to purchase leads'), variant: 'destructive' });
    },
  });

  const buy = () => {
    if (selectedCount === 0) {
      toast({ title: 'No Leads Selected', description: 'Please select at least one lead to purchase.', variant: 'destructive' });
      return;
    }
    buying.current = [...cart.cart.keys()];
    bulkPurchase.mutate({ leadIds: buying.current });
  };

  // Paid: on to the receipt (issue 17 item 3), which reads the purchase from the server and so
  // survives a reload; waiting here first means it usually opens with the leads already sold.
  // The spec's 'Bulk Purchase Successful' is said there, not in a toast that would cover its
  // Go to My Leads button on a phone (issue 17 item 4).
  const paid = async (order: BulkPurchaseResponse) => {
    setFinishing(true);
    await waitUntilSold(order.orderId);
    setFinishing(false);
    setPurchase(null);
    cart.remove(buying.current);
    await refresh();
    void navigate(`/dashboard?${new URLSearchParams({ view: 'lead-receipt', order: order.orderId }).toString()}`);
    window.scrollTo({ top: 0 });
  };

  const state = pageSelectionState(cart.cart, leads);
  const selectAllLabel =
    total > CART_LIMIT
      ? `Select the newest ${CART_LIMIT} of ${total.toLocaleString('en-US')} ${filter ? 'matching this filter' : 'leads'}`
      : `Select all ${total.toLocaleString('en-US')} ${filter ? 'matching this filter' : total === 1 ? 'lead' : 'leads'}`;
  return (
    <section className="market" aria-labelledby="market-title">
      <header className="view-header">
        <h1 id="market-title" ref={tableTop} className="view-header__title">
          Buy Aged Leads
        </h1>
        <p className="view-header__lead">
          Insurance leads 30 to 180 days old, priced by age: {formatUsd(AGED_LEAD_PRICES_CENTS['30-60'])} (30-60 days),{' '}
          {formatUsd(AGED_LEAD_PRICES_CENTS['60-90'])} (60-90 days) and {formatUsd(AGED_LEAD_PRICES_CENTS['90-180'])} (90-180 days). Names and numbers show in full once you buy.
        </p>
      </header>

      <div className="market__tools">
        <FilterBox value={filter} onChange={changeFilter} />
        <HideDncMatches checked={hideDncMatches} onChange={(hide) => {
            setHideDncMatches(hide);
            setPage(1);
          }}
        />
        <div className="market__found">
          <p className="market__count" aria-live="polite">
            {market.isPending ? 'Loading leads…' : `${total.toLocaleString('en-US')} ${total === 1 ? 'lead' : 'leads'} available`}
          </p>
          {total > 0 ? (
            <Button variant="secondary" className="btn--small" onClick={() => void selectAllMatching()} busy={selectingAll}>
              {selectAllLabel}
            </Button>
          ) : null}
        </div>
      </div>

      {/* At the top edge of the screen while the list scrolls: toasts come up from the bottom and never cover it. */}
      <div className="selection-bar" role="region" aria-label="Selection">
        {cart.notice ? (
          <div className="selection-bar__notice" role="status">
            <p>{cart.notice}</p>
            <Button variant="ghost" className="btn--small" onClick={cart.dismissNotice}>
              Dismiss
            </Button>
          </div>
        ) : null}
        <p className="selection-bar__summary" aria-live="polite">
          <span data-testid="selected-count">
            {selectedCount} {selectedCount === 1 ? 'lead' : 'leads'} selected
          </span>
          <span className="selection-bar__total">
            Total: <strong data-testid="selection-total">{formatUsd(totalCents)}</strong>
          </span>
        </p>
        <div className="selection-bar__actions">
          {selectedCount > 0 ? (
            <>
              <Button variant="ghost" className="btn--small" onClick={() => setReviewing(true)}>
                Review
              </Button>
              <Button variant="ghost" className="btn--small" onClick={cart.clear}>
                Clear
              </Button>
            </>
          ) : null}
          <Button onClick={buy} busy={bulkPurchase.isPending}>
            {bulkPurchase.isPending ? 'Reserving…' : 'Buy Selected Leads'}
          </Button>
        </div>
      </div>

      {market.isPending ? (
        <Spinner label="Loading leads…" showLabel />
      ) : market.isError ? (
        <div className="payment-alert" role="alert">
          <p>The leads could not be loaded: {errorMessage(market.error, 'the server did not answer')}.</p>
          <Button variant="secondary" onClick={() => void market.refetch()}>
            Try again
          </Button>
        </div>
      ) : leads.length === 0 ? (
        filter ? (
          <NoFilterMatch filter={filter} onApply={changeFilter} />
        ) : (
          <p className="market__empty">No leads are available right now. Check back soon.</p>
        )
      ) : (
        <div className={market.isPlaceholderData ? 'lead-table-wrap lead-table-wrap--loading' : 'lead-table-wrap'}>
          <table className="lead-table lead-table--market">
            <caption className="visually-hidden">
              Aged leads, page {page} of {totalPages}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="lead-table__check">
                  <label className="lead-table__page-check">
                    <input
                      type="checkbox"
                      aria-label="Select all leads on this page"
                      checked={state === 'all'}
                      ref={(el) => {
                        if (el) el.indeterminate = state === 'some';
                      }}
                      onChange={() => cart.togglePage(leads)}
                    />
                    {/* On a phone the header row is this box alone: its words say what it does. */}
                    <span className="lead-table__page-check-text" aria-hidden="true">
                      Select all {leads.length} on this page
                    </span>
                  </label>
                </th>
                <th scope="col">Name</th>
                <th scope="col">Phone</th>
                <th scope="col">State</th>
                <th scope="col">Zip</th>
                <th scope="col">Age</th>
                <th scope="col">Age range</th>
                <th scope="col">Consent</th>
                <th scope="col" className="lead-table__price">
                  Price
                </th>
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => (
                <LeadRow key={lead.id} lead={lead} selected={cart.cart.has(lead.id)} onToggle={() => cart.toggle(lead)} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pager page={page} totalPages={totalPages} onPage={changePage} label="Lead pages" />

      {reviewing ? (
        <CartDialog
          cart={cart.cart}
          notice={cart.notice}
          buying={bulkPurchase.isPending}
          onRecheck={recheck}
          onRemove={(id) => cart.remove([id])}
          onClear={() => {
            cart.clear();
            setReviewing(false);
          }}
          onBuy={buy}
          onClose={() => setReviewing(false)}
        />
      ) : null}

      {purchase ? (
        <PurchaseDialog
          purchase={purchase}
          user={user}
          finishing={finishing}
          onClose={() => {
            if (!finishing) setPurchase(null);
          }}
          onPaid={() => void paid(purchase)}
        />
      ) : null}
    </section>
  );
}

function LeadRow({ lead, selected, onToggle }: { lead: MarketLead; selected: boolean; onToggle(): void }) {
  return (
    <tr className={selected ? 'lead-table__row lead-table__row--selected' : 'lead-table__row'}>
      <td className="lead-table__check">
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={`Select ${lead.name}, ${lead.state}`} />
      </td>
      <td data-label="Name" className="lead-table__name">
        {lead.name}
      </td>
      <td data-label="Phone" className="lead-table__phone">
        <PhoneText phone={lead.phone} />
        <CallingHoursBadge hours={lead} />
      </td>
      <td data-label="State" className="lead-table__meta">
        {lead.state}
      </td>
      <td data-label="Zip" className="lead-table__meta">
        {lead.zip || '—'}
      </td>
      <td data-label="Age" className="lead-table__meta">
        {lead.actualAge} days
      </td>
      <td data-label="Age range" className="lead-table__meta lead-table__range">
        {lead.currentAgeRange} days
      </td>
      <td data-label="Consent" className={lead.consentOnFile ? 'lead-table__consent' : 'lead-table__consent lead-table__consent--none'}>
        {lead.consentOnFile ? (
          <span className="consent-badge">
            <CheckIcon />
            <span>
              Consent<span className="consent-badge__on-file"> on file</span>
              {lead.consentDate ? (
                <>
                  {/* One line on a phone's card; on a wide screen the date goes under the words. */}
                  <span className="consent-badge__sep"> · </span>
                  <span className="consent-badge__date">{formatConsentDate(lead.consentDate)}</span>
                </>
              ) : null}
            </span>
          </span>
        ) : (
          // No badge; a screen reader moving down the column still hears why the cell is empty.
          <span className="visually-hidden">No consent on file</span>
        )}{' '}
        <DncBadge dnc={lead.dnc} />
      </td>
      <td data-label="Price" className="lead-table__price">
        {formatUsd(lead.priceCents)}
      </td>
    </tr>
  );
}

/** Decoration only: the badge's words say it. */
function CheckIcon() {
  return (
    <svg className="consent-badge__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function parseUnavailable(text: string): LeadsUnavailableResponse | undefined {
  try {
    return JSON.parse(text) as LeadsUnavailableResponse;
  } catch {
    return undefined;
  }
}

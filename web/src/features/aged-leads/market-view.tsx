import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BulkPurchaseResponse, LeadsUnavailableResponse, MarketLead } from '@warmline/contracts/catalog';
import { AGED_LEAD_PRICES_CENTS, formatUsd } from '@warmline/contracts/pricing';
import type { PublicUser } from '@warmline/contracts/accounts';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { agedLeadKeys, useBulkPurchase, useMarketLeads, waitUntilSold } from './api';
import { formatConsentDate } from './consent-format';
import { FilterBox } from './filter-box';
import {
  EMPTY_SELECTION,
  pageSelectionState,
  selectionTotalCents,
  toggleLead,
  togglePage,
  type Selection,
} from './lead-selection';
import { Pager } from '../../components/pager';
import { PhoneText } from './phone-text';
import { PurchaseDialog } from './purchase-dialog';
import './aged-leads.css';

/**
 * Buy Aged Leads (spec §2, §4, §5): the market's leads, masked, 50 a page, each with its
 * 'Consent on file' badge where it has one, with the filter, per-lead and per-page selection,
 * the running total, and the bulk purchase with the card form. Changing page clears the
 * selection; changing the filter goes back to page 1 and clears it.
 */
export function MarketView({ user }: { user: PublicUser }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [purchase, setPurchase] = useState<BulkPurchaseResponse | null>(null);
  const [finishing, setFinishing] = useState(false);
  const market = useMarketLeads(page, filter);
  const tableTop = useRef<HTMLHeadingElement>(null);

  const leads = market.data?.leads ?? [];
  const total = market.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / (market.data?.pageSize ?? 50)));
  const selectedCount = selection.size;
  const totalCents = selectionTotalCents(selection);

  const changePage = (next: number) => {
    if (next < 1 || next > totalPages || next === page) return;
    setPage(next);
    setSelection(EMPTY_SELECTION);
    tableTop.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const changeFilter = useCallback((next: string) => {
    setFilter(next.trim());
    setPage(1);
    setSelection(EMPTY_SELECTION);
  }, []);

  // A page that emptied (leads sold meanwhile) steps back to the last page there is.
  useEffect(() => {
    if (market.data && market.data.leads.length === 0 && page > 1 && total > 0) setPage(totalPages);
  }, [market.data, page, total, totalPages]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: agedLeadKeys.all });

  const bulkPurchase = useBulkPurchase({
    onSuccess: (answer) => setPurchase(answer),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        const body = parseUnavailable(error.bodyText);
        const gone = new Set(body?.unavailableLeadIds ?? []);
        setSelection((current) => new Map([...current].filter(([id]) => !gone.has(id))));
        toast({
          title: 'Bulk Purchase Failed',
          description: `${body?.error ?? 'Some leads are no longer available'}. ${gone.size === 1 ? 'That lead was' : `Those ${gone.size} leads were`} removed from your selection.`,
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
    bulkPurchase.mutate({ leadIds: [...selection.keys()] });
  };

  const paid = async (order: BulkPurchaseResponse) => {
    setFinishing(true);
    const status = await waitUntilSold(order.orderId);
    setFinishing(false);
    setPurchase(null);
    setSelection(EMPTY_SELECTION);
    const sold = status?.status === 'paid' ? status.soldLeadCount : order.leadCount;
    toast({
      title: 'Bulk Purchase Successful',
      description: `Successfully purchased ${sold} ${sold === 1 ? 'lead' : 'leads'}.`,
      variant: 'success',
    });
    await refresh();
  };

  const state = pageSelectionState(selection, leads);
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
        <p className="market__count" aria-live="polite">
          {market.isPending ? 'Loading leads…' : `${total.toLocaleString('en-US')} ${total === 1 ? 'lead' : 'leads'} available`}
        </p>
      </div>

      <div className="selection-bar" role="region" aria-label="Selection">
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
            <Button variant="ghost" className="btn--small" onClick={() => setSelection(EMPTY_SELECTION)}>
              Clear
            </Button>
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
        <p className="market__empty">{filter ? 'No leads match this filter.' : 'No leads are available right now. Check back soon.'}</p>
      ) : (
        <div className={market.isPlaceholderData ? 'lead-table-wrap lead-table-wrap--loading' : 'lead-table-wrap'}>
          <table className="lead-table">
            <caption className="visually-hidden">
              Aged leads, page {page} of {totalPages}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="lead-table__check">
                  <input
                    type="checkbox"
                    aria-label="Select all leads on this page"
                    checked={state === 'all'}
                    ref={(el) => {
                      if (el) el.indeterminate = state === 'some';
                    }}
                    onChange={() => setSelection((current) => togglePage(current, leads))}
                  />
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
                <LeadRow
                  key={lead.id}
                  lead={lead}
                  selected={selection.has(lead.id)}
                  onToggle={() => setSelection((current) => toggleLead(current, lead))}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pager page={page} totalPages={totalPages} onPage={changePage} label="Lead pages" />

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
      <td data-label="Age range" className="lead-table__meta">
        {lead.currentAgeRange} days
      </td>
      <td data-label="Consent" className={lead.consentOnFile ? 'lead-table__consent' : 'lead-table__consent lead-table__consent--none'}>
        {lead.consentOnFile ? (
          <span className="consent-badge">
            <CheckIcon />
            <span>
              Consent on file
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
        )}
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

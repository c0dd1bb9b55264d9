import { useId, useState } from 'react';
import type { TransferBalance, TransferDay } from '@warmline/contracts/live-transfers';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { usDate } from '../../lib/us-date';
import { usePauseTransfers, useMyTransfers, type TransferFilters } from './api';
import { DeliverySettings } from './delivery-settings';
import { TransferFiltersBar, TransferLog } from './transfer-log';
import './my-transfers.css';

const NO_FILTERS: TransferFilters = { status: '', from: '', to: '' };

/**
 * My Transfers (issue 23 §5): the transfers I have left and what they cost, today against my cap,
 * Pause / Resume, my delivery settings, and every transfer delivered to me, charged or protected by
 * the 120-second buffer. The log asks again every few seconds while the page is shown, so a call
 * shows up moments after the vendor reports it.
 */
export function MyTransfersView({ onBuy }: { onBuy: () => void }) {
  const [filters, setFilters] = useState<TransferFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const mine = useMyTransfers(filters, page);
  const logTitleId = useId();

  return (
    <section className="dash-view" aria-labelledby="my-transfers-title">
      <div className="view-header view-header--actions">
        <div className="view-header__text">
          <h1 id="my-transfers-title" className="view-header__title">
            My Transfers
          </h1>
          <p className="view-header__lead">Live transfers delivered to your phone. A call that ends within 120 seconds is never charged.</p>
        </div>
        <Button variant="secondary" onClick={onBuy}>
          Buy Call Transfers
        </Button>
      </div>
      {mine.isPending ? (
        <Spinner label="Loading your transfers…" showLabel />
      ) : mine.isError ? (
        <LoadError what="your transfers" error={mine.error} onRetry={() => void mine.refetch()} />
      ) : (
        <>
          <div className="my-transfers__top">
            <BalanceCard balance={mine.data.balance} />
            <TodayCard today={mine.data.today} />
          </div>
          <DeliverySettings paused={mine.data.today.paused} />
          <section className="card my-transfers__log" aria-labelledby={logTitleId}>
            <h2 id={logTitleId} className="my-transfers__subtitle">
              Your transfers
            </h2>
            <TransferFiltersBar
              filters={filters}
              onChange={(next) => {
                setFilters(next);
                setPage(1);
              }}
            />
            <TransferLog answer={mine.data} onPage={setPage} filtered={Boolean(filters.status || filters.from || filters.to)} />
          </section>
        </>
      )}
    </section>
  );
}

/** The transfers left, by the price they were bought at (the oldest is charged first). */
function BalanceCard({ balance }: { balance: TransferBalance }) {
  const lots = balance.lots.filter((lot) => lot.transfersLeft > 0);
  return (
    <div className="card my-transfers__card">
      <p className="my-transfers__label">Transfers left</p>
      <p className="my-transfers__value" data-testid="transfer-balance">
        {balance.transfers.toLocaleString('en-US')}
      </p>
      {lots.length ? (
        <ul className="my-transfers__lots" aria-label="Bought at">
          {lots.map((lot, i) => (
            <li key={`${lot.creditedAt}-${i}`}>
              {lot.transfersLeft.toLocaleString('en-US')} at {formatUsd(lot.unitCents)}
              {lot.source === 'dispute' ? ' (credited back)' : lot.source === 'adjustment' ? ' (adjusted by WarmLine)' : ''}
            </li>
          ))}
        </ul>
      ) : (
        <p className="my-transfers__hint">Buy call transfers to start receiving them.</p>
      )}
      {balance.inFlight > 0 ? (
        <p className="my-transfers__hint">
          {balance.inFlight} {balance.inFlight === 1 ? 'call is' : 'calls are'} being transferred to you now.
        </p>
      ) : null}
    </div>
  );
}

/** Today in the agent's zone: the count against the cap, the hours, and Pause / Resume. */
function TodayCard({ today }: { today: TransferDay }) {
  const pause = usePauseTransfers();
  const status = today.paused ? 'Paused: no transfer is sent to you' : today.withinHours ? 'Receiving transfers now' : 'Outside your hours now';
  return (
    <div className="card my-transfers__card my-transfers__today">
      <p className="my-transfers__label">
        Today, {usDate(`${today.date}T12:00:00Z`, 'UTC')} ({today.timeZoneName})
      </p>
      <p className="my-transfers__value" data-testid="transfers-today">
        {today.count.toLocaleString('en-US')}
        {today.cap !== null ? <span className="my-transfers__of"> of {today.cap.toLocaleString('en-US')} a day</span> : null}
      </p>
      <p className={today.paused ? 'my-transfers__state my-transfers__state--paused' : 'my-transfers__state'} data-testid="transfer-state">
        {status}
      </p>
      <p className="my-transfers__hint">{today.nextHours ? `Next hours: ${today.nextHours}` : 'No hours set yet: add them in your delivery settings.'}</p>
      <Button
        variant={today.paused ? 'primary' : 'secondary'}
        className="btn--small"
        busy={pause.isPending}
        onClick={() =>
          pause.mutate(!today.paused, {
            onSuccess: () =>
              toast({
                title: today.paused ? 'Transfers resumed' : 'Transfers paused',
                description: today.paused ? 'Transfers reach you again from the next call.' : 'No transfer is sent to you from the next call until you resume.',
                variant: 'success',
              }),
            onError: (failure) => toast({ title: 'Failed to change pause', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
          })
        }
      >
        {today.paused ? 'Resume transfers' : 'Pause transfers'}
      </Button>
    </div>
  );
}

import { Fragment, useCallback, useState } from 'react';
import type { MyLeadsResponse, PurchasedLead } from '@warmline/contracts/catalog';
import { formatUsd } from '@warmline/contracts/pricing';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api';
import { usDate } from '../../lib/us-date';
import { myLeadsCsvUrl, useMyLeads } from './api';
import { certificateUrl, formatConsentTime } from './consent-format';
import { FilterBox } from './filter-box';
import { Pager } from '../../components/pager';
import { PhoneText } from './phone-text';
import { EvidenceLink } from '../compliance/evidence-link';
import { DoNotCallPhone } from '../compliance/do-not-call-phone';
import { LeadReturnCell } from './lead-return-dialog';
import { DncBadge } from '../compliance/dnc-badge';
import './aged-leads.css';
import { CallingHoursBadge } from '../compliance/calling-hours-badge';


/**
 * My Leads: the leads this agent bought, in full (the consent record too), with the purchase
 * date and the price paid; filtered like the market, and downloadable as CSV.
 */
export function MyLeadsView({ onBrowse }: { onBrowse(): void }) {
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState('');
  // Issue 24: returned leads leave the active list; a switch shows them.
  const [view, setView] = useState<'active' | 'returned'>('active');
  const mine = useMyLeads(page, filter, view);
  const leads = mine.data?.leads ?? [];
  const total = mine.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / (mine.data?.pageSize ?? 50)));
  const changeFilter = useCallback((next: string) => {
    setFilter(next.trim());
    setPage(1);
  }, []);

  return (
    <section className="my-leads" aria-labelledby="my-leads-title">
      <header className="view-header view-header--actions">
        <div className="view-header__text">
          <h1 id="my-leads-title" className="view-header__title">
            My Leads
          </h1>
          <p className="view-header__lead">
            Every lead you bought, with full contact details, its consent record, the date you bought it and the price you paid.
          </p>
        </div>
        <a className="btn btn--secondary" href={myLeadsCsvUrl(filter)} download>
          Download CSV
        </a>
      </header>

      <div className="my-leads__views" role="group" aria-label="Which leads">
        {(['active', 'returned'] as const).map((v) => (
          <Button
            key={v}
            variant={view === v ? 'primary' : 'secondary'}
            className="btn--small"
            aria-pressed={view === v}
            onClick={() => {
              setView(v);
              setPage(1);
            }}
          >
            {v === 'active' ? 'My leads' : 'Returned'}
          </Button>
        ))}
      </div>

      <div className="market__tools">
        <FilterBox value={filter} onChange={changeFilter} label="Filter your leads by state, area code or zip code" />
        <p className="market__count" aria-live="polite">
          {mine.isPending ? 'Loading your leads…' : `${total.toLocaleString('en-US')} ${total === 1 ? 'lead' : 'leads'}`}
        </p>
      </div>

      {mine.isPending ? (
        <Spinner label="Loading your leads…" showLabel />
      ) : mine.isError ? (
        <div className="payment-alert" role="alert">
          <p>Your leads could not be loaded: {errorMessage(mine.error, 'the server did not answer')}.</p>
          <Button variant="secondary" onClick={() => void mine.refetch()}>
            Try again
          </Button>
        </div>
      ) : leads.length === 0 ? (
        <div className="market__empty">
          <p>{filter ? 'None of your leads match this filter.' : view === 'returned' ? 'You have not returned any leads.' : 'You have not bought any leads yet.'}</p>
          {filter || view === 'returned' ? null : <Button onClick={onBrowse}>Buy Aged Leads</Button>}
        </div>
      ) : (
        <div className={mine.isPlaceholderData ? 'lead-table-wrap lead-table-wrap--loading' : 'lead-table-wrap'}>
          <table className="lead-table lead-table--mine">
            <caption className="visually-hidden">Your purchased leads, page {page} of {totalPages}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Phone</th>
                <th scope="col">Email</th>
                <th scope="col">State</th>
                <th scope="col">Form filled</th>
                <th scope="col">Consent</th>
                <th scope="col">Purchased</th>
                <th scope="col" className="lead-table__price">
                  Price paid
                </th>
              </tr>
            </thead>
            <tbody>
              {leads.map((lead) => (
                <PurchasedRow key={lead.id} lead={lead} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Pager page={page} totalPages={totalPages} onPage={(n) => n >= 1 && n <= totalPages && setPage(n)} label="My lead pages" />
    </section>
  );
}

function PurchasedRow({ lead }: { lead: MyLeadsResponse['leads'][number] }) {
  return (
    <tr className="lead-table__row">
      <td data-label="Name" className="lead-table__name">
        {lead.name}
      </td>
      <td data-label="Phone">
        <DoNotCallPhone href={`tel:+1${lead.phone.replace(/\D/g, '')}`} optedOutAt={lead.optedOutAt}>
          <PhoneText phone={lead.phone} />
        </DoNotCallPhone>{' '}
        <DncBadge dnc={lead.dnc} />
        <CallingHoursBadge hours={lead} />
      </td>
      <td data-label="Email" className="lead-table__email">
        {lead.email ? (
          <a className="link" href={`mailto:${lead.email}`}>
            <EmailText email={lead.email} />
          </a>
        ) : (
          <span className="lead-table__none">—</span>
        )}
      </td>
      <td data-label="State">{lead.state}</td>
      <td data-label="Form filled" className="lead-table__nowrap">
        {usDate(lead.formFillTime)}
      </td>
      <td data-label="Consent" className="lead-table__consent">
        <ConsentRecord lead={lead} />
        <EvidenceLink kind="lead" id={lead.id} name={lead.name} />
      </td>
      <td data-label="Purchased" className="lead-table__nowrap">
        {usDate(lead.purchasedAt)}
        {/* Issue 24: the return goes with the purchase (its window counts from it). */}
        <LeadReturnCell lead={lead} />
      </td>
      <td data-label="Price paid" className="lead-table__price">
        {formatUsd(lead.priceCents)}
      </td>
    </tr>
  );
}

/** The consent evidence of a lead bought: its certificate, when and from where the prospect consented. */
function ConsentRecord({ lead }: { lead: PurchasedLead }) {
  if (!lead.consentCertificate && !lead.consentTime && !lead.consentIp) return <span className="lead-table__none">None on file</span>;
  // The column is narrow: the parts speak for themselves on screen, a screen reader hears their names.
  return (
    <dl className="consent-record">
      {lead.consentCertificate ? (
        <div>
          <dt className="visually-hidden">Certificate</dt>
          <dd className={certificateUrl(lead.consentCertificate) ? undefined : 'consent-record__long'}>
            <Certificate certificate={lead.consentCertificate} leadName={lead.name} />
          </dd>
        </div>
      ) : null}
      {lead.consentTime ? (
        <div>
          <dt className="visually-hidden">Consented</dt>
          <dd>
            <time dateTime={lead.consentTime}>{formatConsentTime(lead.consentTime)}</time>
          </dd>
        </div>
      ) : null}
      {lead.consentIp ? (
        <div>
          <dt className="visually-hidden">IP address</dt>
          <dd className="consent-record__long">IP {lead.consentIp}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * An https certificate opens at its issuer in a new tab, named by the issuer's domain (the whole
 * URL is in the CSV); anything else (a Jornaya id, an http address) is shown as text.
 */
function Certificate({ certificate, leadName }: { certificate: string; leadName: string }) {
  const url = certificateUrl(certificate);
  if (!url) return <>{certificate}</>;
  return (
    <a className="link" href={url.href} target="_blank" rel="noopener noreferrer" title={url.href}>
      {url.host.replace(/^(cert|www)\./, '')}{' '}
      <span className="visually-hidden">certificate for {leadName} (opens in a new tab)</span>
    </a>
  );
}

/**
 * An e-mail address that wraps before its '@' and, when the column is narrower still, after a
 * dot of the name ('michael.' 'washington58' '@aol.com'): never in the middle of a word.
 */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  if (at <= 0) return <>{email}</>;
  const words = email.slice(0, at).split(/(?<=\.)/);
  return (
    <>
      {words.map((word, i) => (
        <Fragment key={i}>
          {word}
          <wbr />
        </Fragment>
      ))}
      {email.slice(at)}
    </>
  );
}

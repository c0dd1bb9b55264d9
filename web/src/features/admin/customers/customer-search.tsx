import { useEffect, useState, type FormEvent } from 'react';
import { useBusinessTimeZone } from '../../../lib/site-config';
import { usDate, usDateTime } from '../../../lib/us-date';
import type { CustomerSearchResult } from '@warmline/contracts/customer-search';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_RESULTS, SEARCH_TEXT_REQUIRED } from '@warmline/contracts/customer-search';
import { Button, ButtonLink } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { useCustomerSearch, useSurveyResponse } from './customers-api';
import { surveyResponseFields } from '../shared/survey-response-fields';
import './customer-search.css';

const TYPE_LABELS: Record<CustomerSearchResult['type'], string> = {
  user: 'User',
  survey: 'Survey response',
  customer: 'Customer',
  partner: 'Partner',
};

/** The name a person would say for a result, whatever its type fills. */
function resultName(r: CustomerSearchResult): string {
  const fromParts = [r.firstName, r.lastName].filter(Boolean).join(' ');
  return r.name ?? (fromParts || null) ?? r.businessName ?? r.mainContact ?? r.username ?? r.email ?? r.contactEmail ?? 'Unnamed';
}


/**
 * The customer search box of /admin (spec §2): Enter or Search, a Clear button, the results
 * below. The text asked is the page's `?q=`, so Back from a result comes back to the list.
 */
export function CustomerSearch({
  asked,
  onAsk,
  onOpenUser,
}: {
  asked: string;
  onAsk: (q: string) => void;
  onOpenUser: (username: string) => void;
}) {
  const [text, setText] = useState(asked);
  const [blank, setBlank] = useState(false);
  const [details, setDetails] = useState<CustomerSearchResult | null>(null);
  // "Show more" asks for 50 more each time; a new search starts at 50 again.
  const [limit, setLimit] = useState(MAX_SEARCH_RESULTS);
  const search = useCustomerSearch(asked, limit);

  // Back/forward changes `asked`: the box shows what the list is for.
  useEffect(() => {
    setText(asked);
    setLimit(MAX_SEARCH_RESULTS);
  }, [asked]);

  // Spec §8's toast, once per failure (the list also says so where the results would be).
  const { isError, error, errorUpdatedAt } = search;
  useEffect(() => {
    if (isError) toast({ title: 'Failed to search customers', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
  }, [isError, error, errorUpdatedAt]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = text.trim();
    setBlank(!q);
    if (q) onAsk(q);
  };
  const clear = () => {
    setText('');
    setBlank(false);
    onAsk('');
  };

  return (
    <section className="card admin-search" aria-labelledby="customer-search-title">
      <h2 id="customer-search-title" className="admin-search__title">
        Customer Search
      </h2>
      <form className="admin-search__form" role="search" aria-label="Customer search" noValidate onSubmit={submit}>
        <label className="visually-hidden" htmlFor="customer-search">
          Search customers by name, agency, e-mail, username or phone
        </label>
        <input
          id="customer-search"
          className="field__input"
          type="search"
          enterKeyHint="search"
          placeholder="Name, agency, e-mail, username or phone"
          value={text}
          maxLength={200}
          onChange={(e) => {
            setText(e.target.value);
            if (blank && e.target.value.trim()) setBlank(false);
          }}
          aria-invalid={blank || undefined}
          aria-describedby={blank ? 'customer-search-error' : undefined}
        />
        <Button type="submit">Search</Button>
        <Button variant="secondary" onClick={clear} disabled={!text && !asked}>
          Clear
        </Button>
      </form>
      {blank ? (
        <p id="customer-search-error" className="field__error" role="alert">
          {SEARCH_TEXT_REQUIRED}
        </p>
      ) : null}
      {asked ? (
        search.isPending ? (
          <Spinner label="Searching…" showLabel />
        ) : search.isError ? (
          <p className="admin-empty">Failed to search customers: {errorMessage(search.error, 'the server did not answer')}.</p>
        ) : (
          <>
            {search.data.missingSources.length ? (
              <p className="search-partial" role="status">
                Some records did not answer in time ({search.data.missingSources.join(', ')}); their matches may be missing. Search again to retry.
              </p>
            ) : null}
            {search.data.results.length === 0 ? (
              <p className="admin-empty" role="status">
                Nobody matches “{asked}”.
              </p>
            ) : (
              <>
                <p className="admin-count" role="status">
                  {search.data.results.length === 1 ? '1 result' : `${search.data.results.length} results`}
                  {search.data.more ? ' (more match)' : ''} for “{asked}”
                </p>
                <ul className="search-results" aria-label={`Results for ${asked}`}>
                  {search.data.results.map((r) => (
                    <SearchResultRow key={`${r.type}-${r.id}`} result={r} onOpenUser={onOpenUser} onShowDetails={setDetails} />
                  ))}
                </ul>
                {search.data.more ? (
                  limit < MAX_SEARCH_LIMIT ? (
                    <div className="search-more">
                      <Button variant="secondary" busy={search.isFetching} onClick={() => setLimit((n) => Math.min(n + MAX_SEARCH_RESULTS, MAX_SEARCH_LIMIT))}>
                        Show more
                      </Button>
                    </div>
                  ) : (
                    <p className="admin-empty">More than {MAX_SEARCH_LIMIT} people match: add to the search text to narrow it.</p>
                  )
                ) : null}
              </>
            )}
          </>
        )
      ) : null}
      {details ? <ResultDetailsDialog result={details} onClose={() => setDetails(null)} /> : null}
    </section>
  );
}

/**
 * One result, opening what it is: a user → User Management filtered to them; a paying customer
 * → All Orders filtered by their e-mail; a survey response or a partner → its details.
 */
function SearchResultRow({
  result: r,
  onOpenUser,
  onShowDetails,
}: {
  result: CustomerSearchResult;
  onOpenUser: (username: string) => void;
  onShowDetails: (r: CustomerSearchResult) => void;
}) {
  const name = resultName(r);
  // Issue 22: the back office's dates are the business's (BUSINESS_TIMEZONE).
  const zone = useBusinessTimeZone();
  const company = r.agencyName ?? r.businessName;
  const email = r.email ?? r.contactEmail;
  const phone = r.phone ?? r.contactPhone;
  return (
    <li className="search-result" data-testid="search-result">
      <span className={`search-result__type search-result__type--${r.type}`}>{TYPE_LABELS[r.type]}</span>
      <span className="search-result__who">
        <strong>{name}</strong>
        {company && company !== name ? <span> · {company}</span> : null}
        {r.type === 'user' && r.username ? <span className="search-result__muted"> · @{r.username}</span> : null}
      </span>
      <span className="search-result__contact">
        {[email, phone, r.leadType, r.salesperson ? `via ${r.salesperson}` : null, usDate(r.createdAt, zone)].filter(Boolean).join(' · ')}
      </span>
      {r.type === 'user' ? (
        <Button variant="secondary" className="btn--small" onClick={() => onOpenUser(r.username ?? email ?? '')} aria-label={`Open ${name} in User Management`}>
          Open
        </Button>
      ) : r.type === 'customer' && email ? (
        <ButtonLink
          to={`/admin-all-orders?q=${encodeURIComponent(email)}`}
          variant="secondary"
          className="btn--small"
          aria-label={`Open the orders of ${name}`}
        >
          Open orders
        </ButtonLink>
      ) : (
        <Button variant="secondary" className="btn--small" onClick={() => onShowDetails(r)} aria-label={`Open ${name}'s ${TYPE_LABELS[r.type].toLowerCase()}`}>
          Open
        </Button>
      )}
    </li>
  );
}

/** A survey response with every answer of both steps, read from the gateway (issue 22). */
function SurveyAnswers({ result: r }: { result: CustomerSearchResult }) {
  const response = useSurveyResponse(r.id);
  if (response.isPending) return <Spinner label="Loading the answers…" showLabel />;
  if (response.isError) return <LoadError what="the survey answers" error={response.error} onRetry={() => void response.refetch()} />;
  return <DetailRows rows={surveyResponseFields(response.data)} />;
}

function DetailRows({ rows }: { rows: Array<[string, string | null]> }) {
  return (
    <dl className="result-details">
      {rows.map(([label, value]) => (
        <div key={label} className="result-details__row">
          <dt>{label}</dt>
          <dd>{value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A survey response (both steps) or a partner application (every field the search knows), read only. */
function ResultDetailsDialog({ result: r, onClose }: { result: CustomerSearchResult; onClose: () => void }) {
  const zone = useBusinessTimeZone();
  const rows: Array<[string, string | null]> = [
    ['Business', r.businessName],
    ['Main contact', r.mainContact],
    ['E-mail', r.contactEmail],
    ['Phone', r.contactPhone],
    ['Applied', usDateTime(r.createdAt, zone)],
  ];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={r.type === 'partner' ? 'Partner application' : 'Survey response'}>
      {r.type === 'survey' ? <SurveyAnswers result={r} /> : <DetailRows rows={rows} />}
      <div className="dialog__actions">
        {r.type === 'survey' ? (
          <ButtonLink to="/admin?tab=test-campaigns" variant="secondary" onClick={onClose}>
            Test Campaigns
          </ButtonLink>
        ) : (
          <ButtonLink to="/admin?tab=partner-apps" variant="secondary" onClick={onClose}>
            Partner Apps
          </ButtonLink>
        )}
        <DialogClose asChild>
          <Button>Done</Button>
        </DialogClose>
      </div>
    </Dialog>
  );
}

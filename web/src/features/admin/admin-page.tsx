import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { CustomerSearchResult } from '@warmline/contracts/customer-search';
import { AppShell } from '../../components/app-shell';
import { Button, ButtonLink } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api';
import { usePageTitle } from '../../lib/page-title';
import { useAdminStats, useCustomerSearch } from './api';
import { UserManagementTab } from './user-management-tab';
import './admin.css';

/** The five tabs of spec §2, in its order; the current one is `?tab=` in the URL. */
const TABS = [
  { id: 'upload-aged-leads', label: 'Upload Aged Leads' },
  { id: 'upload-callbacks', label: 'Upload Callback Opportunities' },
  { id: 'user-management', label: 'User Management' },
  { id: 'partner-apps', label: 'Partner Apps' },
  { id: 'test-campaigns', label: 'Test Campaigns' },
] as const;
type TabId = (typeof TABS)[number]['id'];
const DEFAULT_TAB: TabId = 'user-management';

/** What a tab whose feature is not built yet says, plainly. */
const NOT_YET: Partial<Record<TabId, string>> = {
  'upload-aged-leads': 'Uploading aged leads by CSV is not available yet. It is the next feature of the back office.',
  'upload-callbacks': 'Uploading callback opportunities is not available yet.',
  'partner-apps': 'Partner applications are not available here yet.',
  'test-campaigns': 'Test campaigns (referral pages and their survey responses) are not available here yet.',
};

/**
 * /admin (spec §2, issue 12): customer search, the four cards, the five tabs. Admins only — the
 * route guard spares customers the screen (they land on /dashboard); the server checks every call.
 */
export function AdminPage({ user }: { user: PublicUser }) {
  usePageTitle('Admin Panel');
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.some((t) => t.id === params.get('tab')) ? (params.get('tab') as TabId) : DEFAULT_TAB;
  const userFilter = params.get('users') ?? '';

  const openTab = (id: TabId, extra: Record<string, string> = {}) => {
    const next = new URLSearchParams({ tab: id, ...extra });
    setParams(next);
  };

  return (
    <AppShell user={user} area="Admin">
      <div className="admin">
        <div className="admin__header">
          <h1 className="admin__title">Admin Panel</h1>
          <nav className="admin__links" aria-label="Back office">
            <ButtonLink to="/admin-orders" variant="secondary" className="btn--small">
              Transfer Orders
            </ButtonLink>
            <ButtonLink to="/admin-all-orders" variant="secondary" className="btn--small">
              All Orders
            </ButtonLink>
            <ButtonLink to="/admin-audit-log" variant="secondary" className="btn--small">
              Audit Log
            </ButtonLink>
            <ButtonLink to="/account-security" variant="secondary" className="btn--small">
              Account &amp; Security
            </ButtonLink>
          </nav>
        </div>

        <CustomerSearch onOpenUser={(q) => openTab('user-management', { users: q })} />
        <AdminCards onOpenUsers={() => openTab('user-management')} />

        <div className="admin-tabs">
          <div role="tablist" aria-label="Admin sections" className="admin-tabs__list">
            {TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`panel-${t.id}`}
                tabIndex={tab === t.id ? 0 : -1}
                className="admin-tabs__tab"
                onClick={() => openTab(t.id)}
                onKeyDown={(event) => {
                  const at = TABS.findIndex((x) => x.id === tab);
                  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  const next = TABS[(at + step + TABS.length) % TABS.length]!;
                  openTab(next.id);
                  document.getElementById(`tab-${next.id}`)?.focus();
                }}
              >
                {t.label}
              </button>
            ))}
          </div>
          <section role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="admin-tabs__panel">
            {tab === 'user-management' ? (
              <UserManagementTab
                key={userFilter}
                filter={userFilter}
                currentUserId={user.id}
                onFilterChange={(q) => openTab('user-management', q ? { users: q } : {})}
              />
            ) : (
              <p className="admin-empty">{NOT_YET[tab]}</p>
            )}
          </section>
        </div>
      </div>
    </AppShell>
  );
}

function formatCents(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** The four cards (issue 12): each opens what it counts. */
function AdminCards({ onOpenUsers }: { onOpenUsers: () => void }) {
  const stats = useAdminStats();
  const value = (n: number | null | undefined, format: (n: number) => string = (x) => x.toLocaleString('en-US')) =>
    stats.isPending ? '…' : stats.isError || n === null || n === undefined ? 'Unavailable' : format(n);
  return (
    <ul className="admin-cards" aria-label="Business at a glance">
      <li>
        <button type="button" className="admin-card" onClick={onOpenUsers}>
          <span className="admin-card__label">Total Users</span>
          <span className="admin-card__value">{value(stats.data?.totalUsers)}</span>
        </button>
      </li>
      <li>
        <button type="button" className="admin-card" onClick={onOpenUsers}>
          <span className="admin-card__label">New Sign-ups</span>
          <span className="admin-card__value">{value(stats.data?.newSignUps)}</span>
          <span className="admin-card__hint">last 7 days</span>
        </button>
      </li>
      <li>
        <Link className="admin-card" to="/admin-all-orders">
          <span className="admin-card__label">Revenue</span>
          <span className="admin-card__value">{value(stats.data?.revenueThisMonthCents, formatCents)}</span>
          <span className="admin-card__hint">this month, all products</span>
        </Link>
      </li>
      <li>
        <Link className="admin-card" to="/admin-orders">
          <span className="admin-card__label">Open Transfer Orders</span>
          <span className="admin-card__value">{value(stats.data?.openTransferOrders)}</span>
          <span className="admin-card__hint">paid, not yet completed</span>
        </Link>
      </li>
    </ul>
  );
}

const TYPE_LABELS: Record<CustomerSearchResult['type'], string> = {
  user: 'User',
  survey: 'Survey response',
  customer: 'Customer',
  partner: 'Partner',
};

/** The customer search box (spec §2): Enter or Search, a clear button, the results below. */
function CustomerSearch({ onOpenUser }: { onOpenUser: (q: string) => void }) {
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  const [blank, setBlank] = useState(false);
  const search = useCustomerSearch(asked);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBlank(!text.trim());
    setAsked(text.trim());
  };
  const clear = () => {
    setText('');
    setAsked('');
    setBlank(false);
  };

  return (
    <section className="card admin-search" aria-labelledby="customer-search-title">
      <h2 id="customer-search-title" className="admin-search__title">
        Customer Search
      </h2>
      <form className="admin-search__form" role="search" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="customer-search">
          Search customers by name, agency, e-mail, username or phone
        </label>
        <input
          id="customer-search"
          className="field__input"
          type="search"
          placeholder="Name, agency, e-mail, username or phone"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={blank ? 'customer-search-error' : undefined}
        />
        <Button type="submit">Search</Button>
        <Button variant="secondary" onClick={clear} disabled={!text && !asked}>
          Clear
        </Button>
      </form>
      {blank ? (
        <p id="customer-search-error" className="field__error" role="alert">
          Search text is required
        </p>
      ) : null}
      {asked ? (
        search.isPending ? (
          <Spinner label="Searching…" showLabel />
        ) : search.isError ? (
          <p role="alert">Failed to search customers: {errorMessage(search.error, 'the server did not answer')}.</p>
        ) : search.data.length === 0 ? (
          <p className="admin-empty" role="status">
            Nobody matches “{asked}”.
          </p>
        ) : (
          <ul className="search-results" aria-label={`Results for ${asked}`}>
            {search.data.map((r) => (
              <li key={`${r.type}-${r.id}`} className="search-result">
                <span className={`search-result__type search-result__type--${r.type}`}>{TYPE_LABELS[r.type]}</span>
                <span className="search-result__who">
                  <strong>{r.name ?? r.businessName ?? r.mainContact ?? r.username ?? r.email}</strong>
                  {r.agencyName || r.businessName ? <span> · {r.agencyName ?? r.businessName}</span> : null}
                </span>
                <span className="search-result__contact">
                  {[r.email ?? r.contactEmail, r.phone ?? r.contactPhone].filter(Boolean).join(' · ')}
                  {r.leadType ? ` · ${r.leadType}` : ''}
                  {r.salesperson ? ` · via ${r.salesperson}` : ''}
                </span>
                {r.type === 'user' ? (
                  <Button variant="secondary" className="btn--small" onClick={() => onOpenUser(r.username ?? r.email ?? '')}>
                    Open
                  </Button>
                ) : (
                  <span className="search-result__date">{new Date(r.createdAt).toLocaleDateString('en-US')}</span>
                )}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  );
}

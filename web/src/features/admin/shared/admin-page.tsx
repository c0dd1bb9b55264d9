import { useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../../components/app-shell';
import { ButtonLink } from '../../../components/button';
import { usePageTitle } from '../../../lib/page-title';
import { AdminCards } from './admin-cards';
import { CallbackOpportunitiesTab } from '../callback-opportunities/callback-opportunities-tab';
import { ComplianceTab } from '../compliance/compliance-tab';
import { CampaignsTabSlot } from './admin-shell-slots';
import { CustomerSearch } from '../customers/customer-search';
import { LeadImportsTab } from '../lead-imports/lead-imports-tab';
import { LeadReturnsTab } from '../lead-returns/lead-returns-tab';
import { PartnerAppsTab } from '../partner-apps/partner-apps-tab';
import { TransfersTab } from '../transfers/transfers-tab';
import { UserManagementTab } from '../users/user-management-tab';
import './admin.css';

/** The five tabs of spec §2, in its order, then Transfers (issue 23); the current one is `?tab=` in the URL. */
const TABS = [
  { id: 'upload-aged-leads', label: 'Upload Aged Leads' },
  { id: 'upload-callbacks', label: 'Upload Callback Opportunities' },
  { id: 'user-management', label: 'User Management' },
  { id: 'partner-apps', label: 'Partner Apps' },
  { id: 'test-campaigns', label: 'Test Campaigns' },
  { id: 'transfers', label: 'Transfers' },
  { id: 'returns', label: 'Returns' },
  { id: 'compliance', label: 'Compliance' },
] as const;
type TabId = (typeof TABS)[number]['id'];
const DEFAULT_TAB: TabId = 'user-management';

/**
 * /admin (spec §2, issue 12): customer search, the four cards, the five tabs. Admins only — the
 * route guard spares customers the screen (they land on /dashboard); the server checks every call.
 */
export function AdminPage({ user }: { user: PublicUser }) {
  usePageTitle('Admin Panel');
  const [params, setParams] = useSearchParams();
  const tab: TabId = TABS.some((t) => t.id === params.get('tab')) ? (params.get('tab') as TabId) : DEFAULT_TAB;
  const userFilter = params.get('users') ?? '';
  const searchText = params.get('q') ?? '';

  // Each change is a history entry (Back returns to the previous tab or search); the search
  // text stays while tabs change, so the results are still there.
  const navigate = (next: { tab?: TabId; users?: string; q?: string }) => {
    const query = new URLSearchParams();
    query.set('tab', next.tab ?? tab);
    const users = next.users ?? userFilter;
    if (users) query.set('users', users);
    const q = next.q ?? searchText;
    if (q) query.set('q', q);
    setParams(query);
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

        <CustomerSearch
          asked={searchText}
          onAsk={(q) => navigate({ q })}
          onOpenUser={(username) => navigate({ tab: 'user-management', users: username })}
        />
        <AdminCards onOpenUsers={() => navigate({ tab: 'user-management', users: '' })} />

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
                onClick={() => navigate({ tab: t.id })}
                onKeyDown={(event) => {
                  const at = TABS.findIndex((x) => x.id === tab);
                  const to =
                    event.key === 'ArrowRight' ? (at + 1) % TABS.length
                    : event.key === 'ArrowLeft' ? (at - 1 + TABS.length) % TABS.length
                    : event.key === 'Home' ? 0
                    : event.key === 'End' ? TABS.length - 1
                    : -1;
                  if (to < 0) return;
                  event.preventDefault();
                  const next = TABS[to]!;
                  navigate({ tab: next.id });
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
                onFilterChange={(users) => navigate({ tab: 'user-management', users })}
              />
            ) : tab === 'upload-aged-leads' ? (
              <LeadImportsTab />
            ) : tab === 'partner-apps' ? (
              <PartnerAppsTab />
            ) : tab === 'upload-callbacks' ? (
              <CallbackOpportunitiesTab />
            ) : tab === 'transfers' ? (
              <TransfersTab />
            ) : tab === 'returns' ? (
              <LeadReturnsTab />
            ) : tab === 'compliance' ? (
              <ComplianceTab />
            ) : (
              <CampaignsTabSlot />
            )}
          </section>
        </div>
      </div>
    </AppShell>
  );
}

import { useSearchParams } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { AppShell } from '../../components/app-shell';
import { usePageTitle } from '../../lib/page-title';
import { MarketView } from '../aged-leads/market-view';
import { MyLeadsView } from '../aged-leads/my-leads-view';
import { LeadReceiptView } from '../aged-leads/lead-receipt-view';
import { MyOrdersView } from '../my-orders/my-orders-view';
import { BuyCallbacksView } from '../callbacks/buy-callbacks-view';
import { MyCallbacksView } from '../callbacks/my-callbacks-view';
import { MyTransfersView } from '../my-transfers/my-transfers-view';
import { DashboardSidebar } from './dashboard-sidebar';
import { DEFAULT_VIEW, VIEW_LABELS, viewFromParam, type DashboardView } from './dashboard-views';
import { BuyCallTransfersView } from '../transfers/buy-call-transfers-view';
import { InsuranceRecruitingView } from '../recruiting/insurance-recruiting-view';
import { FacebookCourseView, SupportView, TrainingVideosView } from './info-views';
import { AccountSecurity } from '../account/account-security';
import './dashboard.css';

/**
 * The customer dashboard (spec §2): the sidebar and one view at a time. Views switch without
 * reloading; the view is in the URL (`?view=`), so reloading or sharing the link keeps it.
 */
export function DashboardPage({ user }: { user: PublicUser }) {
  const [params, setParams] = useSearchParams();
  const view = viewFromParam(params.get('view'));
  usePageTitle(VIEW_LABELS[view]);

  const show = (next: DashboardView) => {
    setParams(next === DEFAULT_VIEW ? {} : { view: next });
    window.scrollTo({ top: 0 });
  };

  return (
    <AppShell user={user} area="Dashboard" sidebarLogout>
      <div className="dashboard">
        <DashboardSidebar view={view} onView={show} greeting={`Welcome, ${user.firstName || user.username}`} />
        <div className="dashboard__content">
          <DashboardContent view={view} user={user} show={show} setParams={setParams} order={params.get('order')} />
        </div>
      </div>
    </AppShell>
  );
}

function DashboardContent({
  view,
  user,
  show,
  setParams,
  order,
}: {
  view: DashboardView;
  user: PublicUser;
  show(view: DashboardView): void;
  setParams(params: Record<string, string>): void;
  /** The receipt's order id (`&order=`). */
  order: string | null;
}) {
  switch (view) {
    case 'buy-aged-leads':
      return <MarketView user={user} />;
    case 'lead-receipt':
      return <LeadReceiptView orderParam={order} user={user} />;
    case 'my-leads':
      return <MyLeadsView onBrowse={() => show('buy-aged-leads')} />;
    case 'my-orders':
      return (
        <MyOrdersView
          user={user}
          onBrowse={() => show('buy-aged-leads')}
          onPurchasePaid={(orderId) => {
            setParams({ view: 'lead-receipt', order: orderId });
            window.scrollTo({ top: 0 });
          }}
        />
      );
    case 'buy-call-transfers':
      return <BuyCallTransfersView user={user} onMyTransfers={() => show('my-transfers')} />;
    case 'my-callbacks':
      return <MyCallbacksView onBuy={() => show('buy-callbacks')} />;
    case 'my-transfers':
      return <MyTransfersView onBuy={() => show('buy-call-transfers')} />;
    case 'buy-callbacks':
      return <BuyCallbacksView user={user} onPaid={() => show('my-callbacks')} />;
    case 'insurance-recruiting':
      return <InsuranceRecruitingView user={user} />;
    case 'facebook-course':
      return <FacebookCourseView />;
    case 'training-videos':
      return <TrainingVideosView />;
    case 'support':
      return <SupportView />;
    case 'account':
      return (
        <section className="dash-view" aria-labelledby="account-title">
          <h1 id="account-title" className="view-header__title">
            Account &amp; Security
          </h1>
          <AccountSecurity />
        </section>
      );
  }
}

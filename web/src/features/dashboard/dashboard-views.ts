/**
 * The dashboard's views (spec §4: buy-aged-leads is the default) plus My Leads, the
 * account's password and second factor (issue 11), My Orders (issue 12, not in the spec) and
 * Buy Call-backs / My Call-backs (issue 15; the call-back e-mail links to ?view=my-callbacks) and My
 * Transfers (issue 23: live transfers delivered, the balance, settings and disputes). The current
 * view lives in the URL (`/dashboard?view=my-leads`), so a reload or a shared link keeps it.
 */
const DASHBOARD_VIEWS = [
  'buy-aged-leads',
  'buy-call-transfers',
  'buy-callbacks',
  'insurance-recruiting',
  'my-leads',
  'my-callbacks',
  'my-transfers',
  'my-orders',
  'facebook-course',
  'training-videos',
  'support',
  'account',
  // Not in the sidebar: where a purchase of aged leads ends (`&order=<id>`, issue 17 item 3).
  'lead-receipt',
] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

export const DEFAULT_VIEW: DashboardView = 'buy-aged-leads';

export const VIEW_LABELS: Record<DashboardView, string> = {
  'buy-aged-leads': 'Buy Aged Leads',
  'buy-call-transfers': 'Buy Call Transfers',
  'buy-callbacks': 'Buy Call-backs',
  'insurance-recruiting': 'Insurance Recruiting',
  'my-leads': 'My Leads',
  'my-callbacks': 'My Call-backs',
  'my-transfers': 'My Transfers',
  'my-orders': 'My Orders',
  'facebook-course': 'Facebook Ads Course',
  'training-videos': 'Training Videos',
  support: 'Contact Support',
  account: 'Account & Security',
  'lead-receipt': 'Your Receipt',
};

/** The sidebar's sections, in order. */
export const SIDEBAR_SECTIONS: Array<{ title: string; views: DashboardView[] }> = [
  { title: 'Purchase', views: ['buy-aged-leads', 'buy-call-transfers', 'buy-callbacks', 'insurance-recruiting'] },
  { title: 'Your Leads', views: ['my-leads', 'my-callbacks', 'my-transfers'] },
  { title: 'Your Orders', views: ['my-orders'] },
  { title: 'Training', views: ['facebook-course', 'training-videos'] },
  { title: 'Support', views: ['support'] },
  { title: 'Account', views: ['account'] },
];

/** The view a `view` query value names; anything unknown is the default. */
export function viewFromParam(value: string | null): DashboardView {
  return (DASHBOARD_VIEWS as readonly string[]).includes(value ?? '') ? (value as DashboardView) : DEFAULT_VIEW;
}

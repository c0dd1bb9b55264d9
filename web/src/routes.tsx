import { Suspense, useState, type ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { PageSpinner } from './components/spinner';
import type { CurrentUser } from './features/auth/api';
import { GetStartedRedirect } from './features/get-started/get-started-redirect';
import { lazyPage, type LazyPage } from './lib/lazy-page';

/*
 * The route table of spec §2. Every screen is loaded lazily, so the landing page's chunk
 * carries neither the dashboard nor the admin code. The public pages (landing, pricing, the
 * tier pages, the 404) load no data; every other screen, the session guards and the referral
 * lookup load with the query cache (QueryScope), so react-query stays off the landing route.
 *
 * A new page's path goes here AND in services/contracts/src/spa-routes.ts (SPA_ROUTES): the
 * gateway refuses campaign slugs named like a page, and web/test/spa-routes.test.tsx fails when
 * a path here is missing there.
 */
const QueryScope = lazyPage(() => import('./lib/query-scope'), 'QueryScope');
const guards = () => import('./features/auth/guards');
const adminPrefetch = () => import('./features/admin/shared/prefetch');
const RequireSession = lazyPage(guards, 'RequireSession');
const RequireAdmin = lazyPage(guards, 'RequireAdmin');
const ReferralOrNotFound = lazyPage(() => import('./features/referral/referral-route'), 'ReferralOrNotFound');
const LandingPage = lazyPage(() => import('./features/landing/landing-page'), 'LandingPage');
const pricing = () => import('./features/pricing/pricing-pages');
const PricingPage = lazyPage(pricing, 'PricingPage');
const StandardPricingPage = lazyPage(pricing, 'StandardPricingPage');
const SpecialPricingPage = lazyPage(pricing, 'SpecialPricingPage');
const PremiumPricingPage = lazyPage(pricing, 'PremiumPricingPage');
const EnterprisePricingPage = lazyPage(pricing, 'EnterprisePricingPage');
const UltimatePricingPage = lazyPage(pricing, 'UltimatePricingPage');
const checkout = () => import('./features/checkout/checkout-pages');
const CheckoutPage = lazyPage(checkout, 'CheckoutPage');
const PremiumCheckoutPage = lazyPage(checkout, 'PremiumCheckoutPage');
const EnterpriseCheckoutPage = lazyPage(checkout, 'EnterpriseCheckoutPage');
const UltimateCheckoutPage = lazyPage(checkout, 'UltimateCheckoutPage');
const HighVolumeCheckoutPage = lazyPage(checkout, 'HighVolumeCheckoutPage');
const OnboardingSuccessPage = lazyPage(() => import('./features/onboarding/onboarding-success-page'), 'OnboardingSuccessPage');
const ThankYouPage = lazyPage(() => import('./features/thank-you/thank-you-page'), 'ThankYouPage');
const survey = () => import('./features/survey/survey-pages');
const SurveyPage = lazyPage(survey, 'SurveyPage');
const SurveySuccessPage = lazyPage(survey, 'SurveySuccessPage');
const ringcloud = () => import('./features/ringcloud/ringcloud-pages');
const RingcloudSurveyPage = lazyPage(ringcloud, 'RingcloudSurveyPage');
const RingcloudCheckoutPage = lazyPage(ringcloud, 'RingcloudCheckoutPage');
const LoginPage = lazyPage(() => import('./features/auth/login-page'), 'LoginPage');
const ForgotPasswordPage = lazyPage(() => import('./features/auth/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('./features/auth/reset-password-page'), 'ResetPasswordPage');
const DashboardPage = lazyPage(() => import('./features/dashboard/dashboard-page'), 'DashboardPage');
const TransferCheckoutPage = lazyPage(() => import('./features/transfers/transfer-checkout-page'), 'TransferCheckoutPage');
const AdminPage = lazyPage(() => import('./features/admin/shared/admin-page'), 'AdminPage');
const AdminOrdersPage = lazyPage(() => import('./features/admin/orders/admin-orders-page'), 'AdminOrdersPage');
const AuditLogPage = lazyPage(() => import('./features/admin/audit-log/audit-log-page'), 'AuditLogPage');
const AllOrdersPage = lazyPage(() => import('./features/admin/orders/all-orders-page'), 'AllOrdersPage');
const AccountSecurityPage = lazyPage(() => import('./features/account/account-security-page'), 'AccountSecurityPage');
const PartnerApplicationPage = lazyPage(() => import('./features/partners/partner-application-page'), 'PartnerApplicationPage');
const BrightcallDocsPage = lazyPage(() => import('./features/brightcall-docs/brightcall-docs-page'), 'BrightcallDocsPage');
const NotFoundPage = lazyPage(() => import('./features/not-found/not-found-page'), 'NotFoundPage');

/** A public page: prerendered, no data loaded, so nothing but its own chunk. */
function PublicPage({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/** A screen that loads data: it and the query cache load when it is first opened. */
function Page({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageSpinner />}>
      <QueryScope>{children}</QueryScope>
    </Suspense>
  );
}

/**
 * A signed-in screen (an admin's with `admin`). Issue 22: the cache, the guard, the screen's code
 * (`load`) and, for an admin screen, its first data are all asked at once — not the session, then
 * the code, then the data — so the screen shows as soon as the slowest of them arrives.
 */
function SignedInPage({ screen: Screen, admin = false }: { screen: LazyPage<{ user: CurrentUser }>; admin?: boolean }) {
  const Guard = admin ? RequireAdmin : RequireSession;
  const { pathname, search } = useLocation();
  // Once per page opened (module imports are cached, so asking again costs nothing).
  useState(() => {
    void QueryScope.preload();
    void Guard.preload();
    void Screen.preload();
    if (admin) void adminPrefetch().then((m) => m.prefetchAdminPage(pathname, search));
    return true;
  });
  return (
    <Page>
      <Guard>
        {(user) => (
          <Suspense fallback={<PageSpinner />}>
            <Screen user={user} />
          </Suspense>
        )}
      </Guard>
    </Page>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<PublicPage><LandingPage /></PublicPage>} />
      <Route path="/pricing" element={<PublicPage><PricingPage /></PublicPage>} />
      <Route path="/standard-pricing" element={<PublicPage><StandardPricingPage /></PublicPage>} />
      <Route path="/special-pricing" element={<PublicPage><SpecialPricingPage /></PublicPage>} />
      <Route path="/premium-pricing" element={<PublicPage><PremiumPricingPage /></PublicPage>} />
      <Route path="/enterprise-pricing" element={<PublicPage><EnterprisePricingPage /></PublicPage>} />
      <Route path="/ultimate-pricing" element={<PublicPage><UltimatePricingPage /></PublicPage>} />
      <Route path="/checkout" element={<Page><CheckoutPage /></Page>} />
      <Route path="/checkout-premium" element={<Page><PremiumCheckoutPage /></Page>} />
      <Route path="/checkout-enterprise" element={<Page><EnterpriseCheckoutPage /></Page>} />
      <Route path="/checkout-ultimate" element={<Page><UltimateCheckoutPage /></Page>} />
      <Route path="/checkout-high-volume" element={<Page><HighVolumeCheckoutPage /></Page>} />
      <Route path="/onboarding-success" element={<Page><OnboardingSuccessPage /></Page>} />
      <Route path="/survey" element={<Page><SurveyPage /></Page>} />
      <Route path="/survey-success" element={<Page><SurveySuccessPage /></Page>} />
      <Route path="/get-started" element={<GetStartedRedirect />} />
      <Route path="/ringcloud" element={<Page><RingcloudSurveyPage /></Page>} />
      <Route path="/ringcloud-checkout" element={<Page><RingcloudCheckoutPage /></Page>} />
      <Route path="/thank-you" element={<Page><ThankYouPage /></Page>} />
      <Route path="/login" element={<Page><LoginPage /></Page>} />
      <Route path="/forgot-password" element={<Page><ForgotPasswordPage /></Page>} />
      <Route path="/reset-password" element={<Page><ResetPasswordPage /></Page>} />
      <Route path="/dashboard" element={<SignedInPage screen={DashboardPage} />} />
      <Route path="/transfer-checkout" element={<SignedInPage screen={TransferCheckoutPage} />} />
      <Route path="/admin" element={<SignedInPage screen={AdminPage} admin />} />
      <Route path="/admin-orders" element={<SignedInPage screen={AdminOrdersPage} admin />} />
      <Route path="/admin-all-orders" element={<SignedInPage screen={AllOrdersPage} admin />} />
      <Route path="/admin-audit-log" element={<SignedInPage screen={AuditLogPage} admin />} />
      <Route path="/account-security" element={<SignedInPage screen={AccountSecurityPage} />} />
      <Route path="/affnetwork" element={<Page><PartnerApplicationPage /></Page>} />
      <Route path="/brightcalldocs" element={<Page><BrightcallDocsPage /></Page>} />
      <Route path="/:name" element={<Page><ReferralOrNotFound /></Page>} />
      <Route path="*" element={<PublicPage><NotFoundPage /></PublicPage>} />
    </Routes>
  );
}

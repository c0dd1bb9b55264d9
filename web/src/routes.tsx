import { Suspense, type ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router-dom';
import { Button } from './components/button';
import { PageSpinner } from './components/spinner';
import { RequireAdmin, RequireSession } from './features/auth/guards';
import { GetStartedRedirect } from './features/get-started/get-started-redirect';
import { useReferralSalesperson } from './features/referral/referral-slugs';
import { lazyPage } from './lib/lazy-page';

/*
 * The route table of spec §2. Every screen is loaded lazily, so the landing page's chunk
 * carries neither the dashboard nor the admin code.
 *
 * A new page's path goes here AND in services/contracts/src/spa-routes.ts (SPA_ROUTES): the
 * gateway refuses campaign slugs named like a page, and web/test/spa-routes.test.tsx fails when
 * a path here is missing there.
 */
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
const ReferralSurveyPage = lazyPage(() => import('./features/referral/referral-survey-page'), 'ReferralSurveyPage');
const LoginPage = lazyPage(() => import('./features/auth/login-page'), 'LoginPage');
const ForgotPasswordPage = lazyPage(() => import('./features/auth/forgot-password-page'), 'ForgotPasswordPage');
const ResetPasswordPage = lazyPage(() => import('./features/auth/reset-password-page'), 'ResetPasswordPage');
const DashboardPage = lazyPage(() => import('./features/dashboard/dashboard-page'), 'DashboardPage');
const TransferCheckoutPage = lazyPage(() => import('./features/transfers/transfer-checkout-page'), 'TransferCheckoutPage');
const AdminPage = lazyPage(() => import('./features/admin/admin-page'), 'AdminPage');
const AdminOrdersPage = lazyPage(() => import('./features/admin/admin-orders-page'), 'AdminOrdersPage');
const AuditLogPage = lazyPage(() => import('./features/admin/audit-log-page'), 'AuditLogPage');
const AllOrdersPage = lazyPage(() => import('./features/admin/all-orders-page'), 'AllOrdersPage');
const AccountSecurityPage = lazyPage(() => import('./features/account/account-security-page'), 'AccountSecurityPage');
const PartnerApplicationPage = lazyPage(() => import('./features/partners/partner-application-page'), 'PartnerApplicationPage');
const BrightcallDocsPage = lazyPage(() => import('./features/brightcall-docs/brightcall-docs-page'), 'BrightcallDocsPage');
const NotFoundPage = lazyPage(() => import('./features/not-found/not-found-page'), 'NotFoundPage');

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

/** /{name} is a referral survey only for an active salesperson (the gateway says); anything else is a 404. */
function ReferralOrNotFound() {
  const { name } = useParams();
  const referral = useReferralSalesperson(name);
  if (referral.state === 'checking') return <PageSpinner />;
  if (referral.state === 'error') {
    return (
      <div className="page-message" role="alert">
        <h1>We could not load this page</h1>
        <p>Please check your connection and try again.</p>
        <Button onClick={referral.retry}>Try again</Button>
      </div>
    );
  }
  return (
    <Page>
      {referral.state === 'found' ? (
        <ReferralSurveyPage salesperson={{ slug: referral.slug, displayName: referral.displayName }} />
      ) : (
        <NotFoundPage />
      )}
    </Page>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Page><LandingPage /></Page>} />
      <Route path="/pricing" element={<Page><PricingPage /></Page>} />
      <Route path="/standard-pricing" element={<Page><StandardPricingPage /></Page>} />
      <Route path="/special-pricing" element={<Page><SpecialPricingPage /></Page>} />
      <Route path="/premium-pricing" element={<Page><PremiumPricingPage /></Page>} />
      <Route path="/enterprise-pricing" element={<Page><EnterprisePricingPage /></Page>} />
      <Route path="/ultimate-pricing" element={<Page><UltimatePricingPage /></Page>} />
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
      <Route
        path="/dashboard"
        element={<RequireSession>{(user) => <Page><DashboardPage user={user} /></Page>}</RequireSession>}
      />
      <Route
        path="/transfer-checkout"
        element={<RequireSession>{(user) => <Page><TransferCheckoutPage user={user} /></Page>}</RequireSession>}
      />
      <Route
        path="/admin"
        element={<RequireAdmin>{(user) => <Page><AdminPage user={user} /></Page>}</RequireAdmin>}
      />
      <Route
        path="/admin-orders"
        element={<RequireAdmin>{(user) => <Page><AdminOrdersPage user={user} /></Page>}</RequireAdmin>}
      />
      <Route
        path="/admin-all-orders"
        element={<RequireAdmin>{(user) => <Page><AllOrdersPage user={user} /></Page>}</RequireAdmin>}
      />
      <Route
        path="/admin-audit-log"
        element={<RequireAdmin>{(user) => <Page><AuditLogPage user={user} /></Page>}</RequireAdmin>}
      />
      <Route
        path="/account-security"
        element={<RequireSession>{(user) => <Page><AccountSecurityPage user={user} /></Page>}</RequireSession>}
      />
      <Route path="/affnetwork" element={<Page><PartnerApplicationPage /></Page>} />
      <Route path="/brightcalldocs" element={<Page><BrightcallDocsPage /></Page>} />
      <Route path="/:name" element={<ReferralOrNotFound />} />
      <Route path="*" element={<Page><NotFoundPage /></Page>} />
    </Routes>
  );
}

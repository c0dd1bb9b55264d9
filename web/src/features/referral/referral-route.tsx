import { Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { Button } from '../../components/button';
import { PageSpinner } from '../../components/spinner';
import { lazyPage } from '../../lib/lazy-page';
import { useReferralSalesperson } from './referral-slugs';

const ReferralSurveyPage = lazyPage(() => import('./referral-survey-page'), 'ReferralSurveyPage');
const NotFoundPage = lazyPage(() => import('../not-found/not-found-page'), 'NotFoundPage');

/**
 * /{name} is a referral survey only for an active salesperson (the gateway says); anything else
 * is a 404. A module of its own, loaded with the query cache it asks through (src/routes.tsx).
 */
export function ReferralOrNotFound() {
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
    <Suspense fallback={<PageSpinner />}>
      {referral.state === 'found' ? (
        <ReferralSurveyPage salesperson={{ slug: referral.slug, displayName: referral.displayName }} />
      ) : (
        <NotFoundPage />
      )}
    </Suspense>
  );
}

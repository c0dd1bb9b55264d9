import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { SURVEY_FUNNELS } from '@warmline/contracts/surveys';
import { usePageTitle } from '../../lib/page-title';
import type { SurveyEndpoint } from './api';
import { PricingNotice } from './pricing-notice';
import { SurveyLayout } from './survey-layout';
import { SurveyWizard } from './survey-wizard';
import { useSurveySubmission } from './use-survey-submission';

/**
 * WarmLine's survey page, for the main funnel (/survey) and a salesperson's referral funnel
 * (/{slug}): the two-step wizard with the pricing notice; once the account is made, /survey-success.
 */
export function WarmLineSurvey({
  endpoint,
  salesperson,
  subtitle,
}: {
  endpoint: Exclude<SurveyEndpoint, { funnel: 'ringcloud' }>;
  /** Whom the sales notice credits. */
  salesperson: string;
  subtitle: ReactNode;
}) {
  usePageTitle('Get Started');
  const navigate = useNavigate();
  const { submit, submitting, fieldError } = useSurveySubmission(endpoint, salesperson, () => {
    void navigate('/survey-success');
  });
  return (
    <SurveyLayout title="Get Started with WarmLine" subtitle={subtitle}>
      <SurveyWizard
        funnel={SURVEY_FUNNELS[endpoint.funnel]}
        notice={<PricingNotice />}
        submitLabel="Submit Survey"
        submitting={submitting}
        fieldError={fieldError}
        onSubmit={submit}
      />
    </SurveyLayout>
  );
}

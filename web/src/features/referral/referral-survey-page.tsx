import { useNavigate } from 'react-router-dom';
import { SURVEY_FUNNELS, type PublicSalesperson } from '@warmline/contracts/surveys';
import { usePageTitle } from '../../lib/page-title';
import { PricingNotice } from '../survey/pricing-notice';
import { SurveyLayout } from '../survey/survey-layout';
import { SurveyWizard } from '../survey/survey-wizard';
import { useSurveySubmission } from '../survey/use-survey-submission';

const FUNNEL = SURVEY_FUNNELS.referral;

/**
 * /{slug}: one salesperson's referral survey (spec §2): lead types Live Transfers, Call-Backs,
 * Aged Leads and the timezone; it creates the account, credited to that salesperson.
 */
export function ReferralSurveyPage({ salesperson }: { salesperson: PublicSalesperson }) {
  usePageTitle('Get Started');
  const navigate = useNavigate();
  const { submit, submitting, fieldError } = useSurveySubmission(
    { funnel: 'referral', slug: salesperson.slug },
    salesperson.displayName,
    () => void navigate('/survey-success'),
  );
  return (
    <SurveyLayout
      title="Get Started with WarmLine"
      subtitle={
        <>
          Referred by <strong>{salesperson.displayName}</strong>. Tell us about your agency and the leads you need.
        </>
      }
    >
      <SurveyWizard
        funnel={FUNNEL}
        notice={<PricingNotice />}
        submitLabel="Submit Survey"
        submitting={submitting}
        fieldError={fieldError}
        onSubmit={submit}
      />
    </SurveyLayout>
  );
}

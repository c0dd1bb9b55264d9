import { useEffect } from 'react';
import { ButtonLink } from '../../components/button';
import { CheckIcon } from '../../components/icons';
import { confettiFor } from '../../lib/confetti';
import { usePageTitle } from '../../lib/page-title';
import { SupportEmail } from '../survey/support-email';
import { SurveyLayout } from '../survey/survey-layout';

const CONFETTI_MS = 3000;

/**
 * /thank-you (spec §2): where the second brand's checkout and the call-transfer orders end.
 * Confetti for 3 seconds, the account manager's promise, support, and home.
 */
export function ThankYouPage() {
  usePageTitle('Thank You');
  useEffect(() => confettiFor(CONFETTI_MS), []);
  return (
    <SurveyLayout title="Thank You!" subtitle="Your payment was received and your order is confirmed." wide={false} footer={false}>
      <div className="result-icon">
        <CheckIcon />
      </div>
      <div className="result-callout">
        <p>An account manager will contact you soon to set up your campaign.</p>
      </div>
      <p className="result-support">
        Questions in the meantime? Email us at <SupportEmail />
      </p>
      <ButtonLink to="/" block>
        Return to Home
      </ButtonLink>
    </SurveyLayout>
  );
}

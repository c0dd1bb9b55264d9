import { useEffect } from 'react';
import { SURVEY_FUNNELS } from '@warmline/contracts/surveys';
import { ButtonLink } from '../../components/button';
import { CheckIcon } from '../../components/icons';
import { confettiFor } from '../../lib/confetti';
import { usePageTitle } from '../../lib/page-title';
import { SupportEmail } from './support-email';
import { SurveyLayout } from './survey-layout';
import { WarmLineSurvey } from './warmline-survey';

/** /survey: the main two-step survey; it creates the account (spec §2). */
export function SurveyPage() {
  return (
    <WarmLineSurvey
      endpoint={{ funnel: 'main' }}
      salesperson={SURVEY_FUNNELS.main.salesperson!}
      subtitle="Tell us about your agency and the leads you need. It takes two minutes."
    />
  );
}

const CONFETTI_MS = 3000;

/** /survey-success (spec §2): what happens next, and on to the login. Confetti for 3 seconds. */
export function SurveySuccessPage() {
  usePageTitle('Survey Completed');
  useEffect(() => confettiFor(CONFETTI_MS), []);
  return (
    <SurveyLayout title="Survey Completed Successfully!" subtitle="Thank you for telling us about your agency." wide={false} footer={false}>
      <div className="result-icon">
        <CheckIcon />
      </div>
      <section className="result-section" aria-labelledby="whats-next">
        <h2 id="whats-next" className="result-section__title">
          What&rsquo;s next?
        </h2>
        <ul className="next-steps">
          {[
            'Your account has been created',
            'Our team has been notified of your preferences',
            'You can now log in with your username and password',
            'Browse and buy aged leads from your dashboard',
          ].map((item) => (
            <li key={item} className="next-steps__item">
              <span className="next-steps__mark" aria-hidden="true">
                ✓
              </span>
              <span>{item}</span>
            </li>
          ))}
        </ul>
      </section>
      <div className="result-callout">
        <p>Our team will contact you within 24 hours to confirm your preferences and pricing.</p>
      </div>
      <p className="result-support">
        Questions? Email us at <SupportEmail />
      </p>
      <ButtonLink to="/login" block>
        Continue to Login
      </ButtonLink>
    </SurveyLayout>
  );
}

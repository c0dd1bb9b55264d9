import { ComingSoonPage } from '../../components/coming-soon-page';

/** The main survey and its success screen (spec §2); built in the survey issue. */
export function SurveyPage() {
  return <ComingSoonPage title="Get Started" />;
}
export function SurveySuccessPage() {
  return <ComingSoonPage title="Survey Completed Successfully!" />;
}

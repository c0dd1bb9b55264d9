import { useParams } from 'react-router-dom';
import { ComingSoonPage } from '../../components/coming-soon-page';

/** The referral survey of one salesperson (spec §2 /{name}); built in the referral issue. */
export function ReferralSurveyPage() {
  const { name } = useParams();
  return <ComingSoonPage title={`Survey${name ? ` · ${name}` : ''}`} />;
}

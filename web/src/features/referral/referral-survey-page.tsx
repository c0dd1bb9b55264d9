import type { PublicSalesperson } from '@warmline/contracts/surveys';
import { WarmLineSurvey } from '../survey/warmline-survey';

/**
 * /{slug}: one salesperson's referral survey (spec §2): lead types Live Transfers, Call-Backs,
 * Aged Leads and the timezone; it creates the account, credited to that salesperson.
 */
export function ReferralSurveyPage({ salesperson }: { salesperson: PublicSalesperson }) {
  return (
    <WarmLineSurvey
      endpoint={{ funnel: 'referral', slug: salesperson.slug }}
      salesperson={salesperson.displayName}
      subtitle={
        <>
          Referred by <strong>{salesperson.displayName}</strong>. Tell us about your agency and the leads you need.
        </>
      }
    />
  );
}

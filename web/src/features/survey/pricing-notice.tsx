/** The notice of the main and referral surveys (spec §2): pricing is behind the login. */
export function PricingNotice() {
  return (
    <p>
      After completing this form, you can log in to view pricing on <strong>Live Transfers</strong>,{' '}
      <strong>Call Backs</strong> and <strong>Aged Leads</strong>.
    </p>
  );
}

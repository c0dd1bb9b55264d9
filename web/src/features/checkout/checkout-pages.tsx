import { ComingSoonPage } from '../../components/coming-soon-page';

/** Package checkouts (spec §2 "Checkout screens"); built in the checkout issue. */
export function CheckoutPage() {
  return <ComingSoonPage title="Checkout" />;
}
export function PremiumCheckoutPage() {
  return <ComingSoonPage title="Premium Volume Package" />;
}
export function EnterpriseCheckoutPage() {
  return <ComingSoonPage title="Enterprise Volume Package" />;
}
export function UltimateCheckoutPage() {
  return <ComingSoonPage title="Ultimate Volume Package" />;
}
export function HighVolumeCheckoutPage() {
  return <ComingSoonPage title="High-Volume Package" />;
}
export function ThankYouPage() {
  return <ComingSoonPage title="Thank You!" />;
}

import { ComingSoonPage } from '../../components/coming-soon-page';

/** Pricing pages (spec §2, §9); their rate cards are built in the pricing issue. */
export function PricingPage() {
  return <ComingSoonPage title="Pricing" />;
}
export function StandardPricingPage() {
  return <ComingSoonPage title="Standard Pricing" />;
}
export function SpecialPricingPage() {
  return <ComingSoonPage title="Congratulations" />;
}
export function PremiumPricingPage() {
  return <ComingSoonPage title="Premium Pricing" />;
}
export function EnterprisePricingPage() {
  return <ComingSoonPage title="Enterprise Pricing" />;
}
export function UltimatePricingPage() {
  return <ComingSoonPage title="Ultimate Pricing" />;
}

import { CHECKOUTS } from './checkout-specs';
import { PackageCheckout } from './package-checkout';

/** The package checkouts (spec §2 "Checkout screens"); /checkout is the special-pricing one. */
export function CheckoutPage() {
  return <PackageCheckout spec={CHECKOUTS.special} />;
}
export function PremiumCheckoutPage() {
  return <PackageCheckout spec={CHECKOUTS.premium} />;
}
export function EnterpriseCheckoutPage() {
  return <PackageCheckout spec={CHECKOUTS.enterprise} />;
}
export function UltimateCheckoutPage() {
  return <PackageCheckout spec={CHECKOUTS.ultimate} />;
}
export function HighVolumeCheckoutPage() {
  return <PackageCheckout spec={CHECKOUTS['high-volume']} />;
}

import { ComingSoonPage } from '../../components/coming-soon-page';

/** The second brand's survey and checkout (spec §2); built in a later issue. */
export function RingcloudSurveyPage() {
  return <ComingSoonPage title="RingCloud Survey" />;
}
export function RingcloudCheckoutPage() {
  return <ComingSoonPage title="RingCloud Checkout" />;
}

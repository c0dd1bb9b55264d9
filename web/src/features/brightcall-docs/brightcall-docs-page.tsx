import { ComingSoonPage } from '../../components/coming-soon-page';

/** /brightcalldocs (spec §2, §7): the webhook document; written in the ingestion issue. */
export function BrightcallDocsPage() {
  return <ComingSoonPage title="BrightCall Webhook Integration" />;
}

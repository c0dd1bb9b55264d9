import { ComingSoonPage } from '../../components/coming-soon-page';

/** /affnetwork (spec §2); the application form is built in the partners issue. */
export function PartnerApplicationPage() {
  return (
    <ComingSoonPage title="Partner Network Application">
      <p>Applications are reviewed within 48 hours.</p>
    </ComingSoonPage>
  );
}

import { VendorKeysSection } from './vendor-keys-section';
import { CsvUpload } from './csv-upload';
import { FormatHelp } from './format-help';
import { ManualForm } from './manual-form';
import { OpportunityList } from './opportunity-list';
import './callback-opportunities.css';

/**
 * Upload Callback Opportunities (spec §2 Admin, issue 15): vendor keys, the CSV upload (parsed here,
 * sent as rows), the manual form, format help, and the opportunities with their transcripts, a state
 * for those waiting for one, and assignment by hand.
 */
export function CallbackOpportunitiesTab() {
  return (
    <div className="callbacks-admin">
      <VendorKeysSection />
      <div className="callbacks-admin__pair">
        <CsvUpload />
        <ManualForm />
      </div>
      <FormatHelp />
      <OpportunityList />
    </div>
  );
}

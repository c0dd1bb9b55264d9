import { CALLBACK_BULK_MAX_ROWS, CALLBACK_CSV_COLUMNS, CALLBACK_EXPIRY_HOURS, CALLBACK_PRICE_MAX, CALLBACK_REPEAT_DAYS, DEFAULT_CALLBACK_PRICE } from '@warmline/contracts/callbacks';

export function FormatHelp() {
  return (
    <section className="card callbacks-section callbacks-help" aria-labelledby="callback-help-title">
      <h2 id="callback-help-title" className="callbacks-section__title">
        CSV Format
      </h2>
      <ul>
        <li>
          The first row names the columns: <strong>{CALLBACK_CSV_COLUMNS.join(', ')}</strong> (any order, any case).
        </li>
        <li>
          Phone: a US number with its area code, 10 digits; punctuation and a leading +1 are fine. Toll-free and non-geographic area codes
          (800, 888, 500, 700, 900, …) are refused.
        </li>
        <li>State: the 2-letter code or the state&apos;s name, e.g. TX or Texas.</li>
        <li>
          Price: dollars from 0.00 to {CALLBACK_PRICE_MAX}, e.g. 15.00; a blank price is ${DEFAULT_CALLBACK_PRICE}. It is what the agent who
          receives the call-back is charged: one call-back of their balance, recorded at this price.
        </li>
        <li>
          A phone on the suppression list is refused. A phone is sold once: a phone with an open opportunity (available, or delivered in the
          last {CALLBACK_REPEAT_DAYS} days), or a second row with the same phone, is listed as a duplicate.
        </li>
        <li>
          Up to {CALLBACK_BULK_MAX_ROWS.toLocaleString('en-US')} rows and 2 MB per file. Good rows are added; each bad row is listed with its
          problem and its row number in the file (the header is row 1).
        </li>
        <li>An opportunity not assigned within {CALLBACK_EXPIRY_HOURS} hours of its callback time (or of being added) expires.</li>
      </ul>
    </section>
  );
}

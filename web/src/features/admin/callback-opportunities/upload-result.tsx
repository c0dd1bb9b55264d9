import type { BulkCallbackResult } from '@warmline/contracts/callbacks';

const FIELD_LABEL: Record<string, string> = { firstName: 'First Name', lastName: 'Last Name', phone: 'Phone', state: 'State', price: 'Price' };

export function UploadResult({ result }: { result: BulkCallbackResult }) {
  return (
    <div className="callbacks-result" data-testid="upload-result">
      <p role="status" className="callbacks-result__summary">
        {result.created.toLocaleString('en-US')} {result.created === 1 ? 'opportunity' : 'opportunities'} created
        {result.rejected.length > 0 ? `, ${result.rejected.length.toLocaleString('en-US')} ${result.rejected.length === 1 ? 'row' : 'rows'} rejected` : ''}.
      </p>
      {result.rejected.length > 0 ? (
        <div className="callbacks-table-wrap">
          <table className="callbacks-table">
            <caption className="callbacks-table__caption">Rejected rows (numbered as in the file: the header is row 1)</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.rejected.map((r, i) => (
                <tr key={`${r.row}-${r.field}-${i}`} data-testid="rejected-row">
                  <td>{r.row}</td>
                  <td>{FIELD_LABEL[r.field] ?? r.field}</td>
                  <td>{r.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

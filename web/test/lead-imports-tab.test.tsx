import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { LeadImportPage, LeadImportView, SuppressionPage } from '@warmline/contracts/lead-imports';
import { LeadImportsTab } from '../src/features/admin/lead-imports/lead-imports-tab';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * The Upload Aged Leads tab (issue 13): the file goes up with its own bar, the import is polled
 * to its end ('Upload Complete!'), a running import is found again after a reload, refusals say
 * the server's words, Undo asks first, and the suppression list adds and removes phones. The
 * network is a stand-in `fetch` (and XMLHttpRequest for the upload) answering as the gateway would.
 */

const ID = '0b8f3c1e-7a52-4d0e-9b3f-2f1c9d4e6a70';
const OLD_ID = '6f1d2a40-1c9b-4e8a-a7c5-3b2e9d0f8a11';

function job(overrides: Partial<LeadImportView> = {}): LeadImportView {
  return {
    id: ID, status: 'running', fileName: 'november-leads.csv', rowsRead: 0, rowsImported: 0, rowsRejected: 0, rowsDuplicate: 0,
    startedAt: '2026-11-25T09:00:00.000Z', finishedAt: null, error: null, rowsTotal: 100, fileBytes: 12_000, bytesRead: 0,
    createdAt: '2026-11-25T09:00:00.000Z', startedBy: { userId: 'u1', name: 'Ada Admin' }, notice: null, cancelRequested: false,
    undoneAt: null, rowsWithdrawn: null,
    ...overrides,
  };
}

const page = (imports: LeadImportView[]): LeadImportPage => ({ imports, total: imports.length, page: 1, pageSize: 20 });
const noSuppressions: SuppressionPage = { suppressions: [], total: 0, page: 1, pageSize: 50 };

type Answer = { status: number; body: unknown };
/** An answer, or answers in turn (the last one repeats): a polled import moves on. */
let answers: Record<string, Answer | Answer[]>;
let sent: Array<{ url: string; method: string; body: unknown }>;

function answerFor(key: string): Answer {
  const entry = answers[key];
  if (!entry) return { status: 404, body: { error: 'Not found' } };
  if (!Array.isArray(entry)) return entry;
  return entry.length > 1 ? entry.shift()! : entry[0]!;
}

/** The upload's XMLHttpRequest: reports progress, then answers with `uploadAnswer`. */
let uploadAnswer: Answer;
let uploads: Array<{ url: string; headers: Record<string, string>; body: FormData }>;

class FakeXhr {
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private url = '';
  private headers: Record<string, string> = {};
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    uploads.push({ url: this.url, headers: this.headers, body });
    const file = body.get('file') as File;
    setTimeout(() => {
      this.upload.onprogress?.({ loaded: Math.floor(file.size / 2), total: file.size, lengthComputable: true });
      setTimeout(() => {
        this.upload.onprogress?.({ loaded: file.size, total: file.size, lengthComputable: true });
        this.status = uploadAnswer.status;
        this.responseText = JSON.stringify(uploadAnswer.body);
        this.onload?.();
      }, 20);
    }, 20);
  }
}

beforeEach(() => {
  sent = [];
  uploads = [];
  uploadAnswer = { status: 202, body: { id: ID, notice: null } };
  answers = {
    'GET /api/admin/lead-imports?page=1': { status: 200, body: page([]) },
    'GET /api/admin/suppressions?page=1': { status: 200, body: noSuppressions },
  };
  // Answers come from answerFor: a list of answers is given in turn, its last one repeating.
  sent = stubApi({}, { fallback: (call) => answerFor(`${call.method} ${call.url}`) }).calls;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return (
    <output data-testid="toast">
      {latest?.open ? `${latest.title}${latest.description ? ` | ${latest.description}` : ''}` : ''}
    </output>
  );
}

function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.search}</output>;
}

function renderTab(url = '/admin?tab=upload-aged-leads') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <LeadImportsTab />
        <LatestToast />
        <Address />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const csv = (name = 'november-leads.csv', text = 'Name,Phone\nJane,5125550143\n') => new File([text], name, { type: 'text/csv' });
const choose = (file: File) => fireEvent.change(screen.getByLabelText('CSV file'), { target: { files: [file] } });
const address = () => screen.getByTestId('address').textContent ?? '';

describe('the Upload Aged Leads tab', () => {
  it('offers the template from the server and a picker that takes CSV files only', async () => {
    renderTab();
    expect(screen.getByRole('link', { name: 'Download Template' }).getAttribute('href')).toBe('/api/admin/lead-imports/template.csv');
    expect(screen.getByLabelText('CSV file').getAttribute('accept')).toBe('.csv,text/csv');
    expect(await screen.findByText('No imports yet. Upload a CSV file above.')).toBeTruthy();
  });

  it('when Upload is pressed without a file, or with a file that is not CSV, then it says why and sends nothing', () => {
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a CSV file to upload');
    expect(screen.getByLabelText('CSV file').getAttribute('aria-invalid')).toBe('true');
    choose(new File(['x'], 'leads.xlsx'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a .csv file (the template is one)');
    choose(csv('empty.csv', ''));
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert').textContent).toBe('The file is empty');
    expect(uploads).toHaveLength(0);
  });

  it("when a file is uploaded, then its bytes show going up, the import's bar moves to the end and 'Upload Complete!' shows for 3 seconds", async () => {
    answers[`GET /api/admin/lead-imports/${ID}`] = [
      { status: 200, body: job({ status: 'queued', startedAt: null }) },
      { status: 200, body: job({ rowsRead: 40, rowsImported: 36, rowsRejected: 3, rowsDuplicate: 1, notice: 'The Age Range and Price columns are ignored: a lead is priced by its age.' }) },
      {
        status: 200,
        body: job({ status: 'done', rowsRead: 100, rowsImported: 90, rowsRejected: 8, rowsDuplicate: 2, finishedAt: '2026-11-25T09:00:04.000Z', notice: 'The Age Range and Price columns are ignored: a lead is priced by its age.' }),
      },
    ];
    renderTab();
    choose(csv());
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

    // The file's own bar, in bytes.
    const uploadBar = await screen.findByRole('progressbar', { name: /november-leads\.csv/ });
    expect(uploadBar.getAttribute('aria-valuemax')).toBe(String(csv().size));
    expect(uploads[0]!.url).toBe('/api/admin/lead-imports');
    expect(uploads[0]!.headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect((uploads[0]!.body.get('file') as File).name).toBe('november-leads.csv');

    // The import: in the URL (a reload comes back to it), polled until done.
    await waitFor(() => expect(address()).toContain(`import=${ID}`));
    expect(address()).toContain('tab=upload-aged-leads');
    const panel = await screen.findByTestId('current-import');
    await within(panel).findByText('Queued: the importer starts it shortly.');
    await waitFor(() => expect(within(panel).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40'), { timeout: 3_000 });
    expect(within(panel).getByRole('progressbar').getAttribute('aria-valuetext')).toBe('40%: 40 of 100 rows read');
    expect(within(panel).getByTestId('rows-imported').textContent).toBe('36');
    expect(within(panel).getByText('The Age Range and Price columns are ignored: a lead is priced by its age.')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Cancel Import' })).toBeTruthy();

    const banner = await within(panel).findByText('Upload Complete!', {}, { timeout: 3_000 });
    expect(banner.getAttribute('role')).toBe('status');
    expect(within(panel).getByTestId('rows-read').textContent).toBe('100 of 100');
    expect(within(panel).getByTestId('rows-rejected').textContent).toBe('8');
    expect(within(panel).getByTestId('rows-duplicate').textContent).toBe('2');
    expect(within(panel).getByRole('link', { name: 'Download report of rejected rows' }).getAttribute('href')).toBe(`/api/admin/lead-imports/${ID}/errors.csv`);
    expect(within(panel).queryByRole('button', { name: 'Cancel Import' })).toBeNull();
    await waitFor(() => expect(within(panel).queryByText('Upload Complete!')).toBeNull(), { timeout: 4_000 });
    // Still there once the banner has gone: what the import did.
    expect(within(panel).getByText('Import finished.')).toBeTruthy();
  }, 15_000);

  it("when the server refuses the file, then its words show under the picker and in spec §8's toast", async () => {
    uploadAnswer = { status: 400, body: { error: 'The file has no Phone column' } };
    renderTab();
    choose(csv());
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to bulk upload leads | The file has no Phone column'));
    expect(screen.getByRole('alert').textContent).toBe('The file has no Phone column');
    expect(address()).not.toContain('import=');
  });

  it('when the tab opens without ?import= and an import is running, then it is found, put in the URL, and Cancel Import stops it', async () => {
    const running = job({ rowsRead: 20, rowsImported: 20 });
    answers['GET /api/admin/lead-imports?page=1'] = { status: 200, body: page([running]) };
    answers[`GET /api/admin/lead-imports/${ID}`] = { status: 200, body: running };
    answers[`POST /api/admin/lead-imports/${ID}/cancel`] = { status: 200, body: job({ rowsRead: 20, rowsImported: 20, cancelRequested: true }) };
    renderTab();
    await waitFor(() => expect(address()).toContain(`import=${ID}`));
    const panel = await screen.findByTestId('current-import');
    expect(within(panel).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
    fireEvent.click(within(panel).getByRole('button', { name: 'Cancel Import' }));
    await within(panel).findByRole('button', { name: 'Stopping…' });
    expect(sent.some((s) => s.method === 'POST' && s.url === `/api/admin/lead-imports/${ID}/cancel`)).toBe(true);
  });

  it('when the import in the URL failed, then its error shows, and no banner (it did not just end here)', async () => {
    answers[`GET /api/admin/lead-imports/${ID}`] = {
      status: 200,
      body: job({ status: 'failed', rowsRead: 2, finishedAt: '2026-11-25T09:00:01.000Z', error: 'Line 3 is not UTF-8 text' }),
    };
    renderTab(`/admin?tab=upload-aged-leads&import=${ID}`);
    const panel = await screen.findByTestId('current-import');
    expect(within(panel).getByRole('alert').textContent).toBe('Line 3 is not UTF-8 text');
    expect(within(panel).queryByText('Upload Complete!')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(address()).not.toContain('import='));
  });

  it('when the import in the URL is not found, then it says so and Close takes it out of the URL', async () => {
    answers[`GET /api/admin/lead-imports/${ID}`] = { status: 404, body: { error: 'Import not found' } };
    renderTab(`/admin?tab=upload-aged-leads&import=${ID}`);
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch the import: Import not found.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(address()).toBe('?tab=upload-aged-leads'));
  });

  it('when Undo is pressed on a past import, then a dialog says it withdraws the leads not yet sold, and after it the import says how many', async () => {
    const old = job({ id: OLD_ID, fileName: 'october.csv', status: 'done', rowsRead: 10, rowsImported: 9, rowsRejected: 1, finishedAt: '2026-11-24T10:00:00.000Z' });
    const undone = { ...old, undoneAt: '2026-11-25T09:30:00.000Z', rowsWithdrawn: 7 };
    answers['GET /api/admin/lead-imports?page=1'] = [{ status: 200, body: page([old]) }, { status: 200, body: page([undone]) }];
    answers[`POST /api/admin/lead-imports/${OLD_ID}/undo`] = { status: 200, body: undone };
    renderTab();
    const row = await screen.findByRole('listitem', { name: 'october.csv' });
    expect(within(row).getByText('By Ada Admin', { exact: false })).toBeTruthy();
    expect(within(row).getByRole('link', { name: /Download report of rejected rows/ }).getAttribute('href')).toBe(`/api/admin/lead-imports/${OLD_ID}/errors.csv`);
    fireEvent.click(within(row).getByRole('button', { name: 'Undo import of october.csv' }));
    const dialog = screen.getByRole('dialog', { name: 'Undo Import' });
    expect(dialog.textContent).toMatch(/withdraws the leads of this import that are not sold yet/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo Import' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Import undone | 7 leads withdrawn.'));
    const after = await screen.findByText('Undone: 7 leads withdrawn');
    expect(within(after.closest('li')!).queryByRole('button', { name: /Undo/ })).toBeNull();
  });

  it("when Undo is refused (still running), then the server's words show in a toast", async () => {
    const old = job({ id: OLD_ID, fileName: 'october.csv', status: 'cancelled', rowsRead: 10, rowsImported: 4, finishedAt: '2026-11-24T10:00:00.000Z' });
    answers['GET /api/admin/lead-imports?page=1'] = { status: 200, body: page([old]) };
    answers[`POST /api/admin/lead-imports/${OLD_ID}/undo`] = { status: 409, body: { error: 'The import is still running; cancel it first' } };
    renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Undo import of october.csv' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Undo Import' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to undo import | The import is still running; cancel it first'));
  });
});

describe('the suppression list', () => {
  const listed = { phone: '5125550143', reason: 'Asked not to be called', createdAt: '2026-11-20T15:00:00.000Z', createdByUserId: 'u1', source: 'admin' as const };

  it('when a phone is suppressed, then it is sent with its reason and the toast says what was withdrawn', async () => {
    answers['POST /api/admin/suppressions'] = { status: 201, body: { ...listed, leadsWithdrawn: 3, buyersNotified: 1 } };
    renderTab();
    fireEvent.click(screen.getByRole('button', { name: 'Suppress Phone' }));
    expect(screen.getByText('Phone is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '(512) 555-0143' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Asked not to be called' } });
    fireEvent.click(screen.getByRole('button', { name: 'Suppress Phone' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('(512) 555-0143 suppressed | 3 leads withdrawn; 1 buyer told to stop contacting it.'));
    expect(sent.find((s) => s.method === 'POST')?.body).toEqual({ phone: '(512) 555-0143', reason: 'Asked not to be called' });
  });

  it("when the phone is already listed, then the server's words show under the phone", async () => {
    answers['POST /api/admin/suppressions'] = { status: 409, body: { error: 'Phone is already on the suppression list' } };
    renderTab();
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '5125550143' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Suppress Phone' }));
    expect(await screen.findByText('Phone is already on the suppression list')).toBeTruthy();
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
  });

  it('when a phone is searched and removed, then the search goes to the server and Remove asks first', async () => {
    answers['GET /api/admin/suppressions?page=1&q=555'] = { status: 200, body: { ...noSuppressions, suppressions: [listed], total: 1 } };
    answers['DELETE /api/admin/suppressions/5125550143'] = { status: 204, body: null };
    renderTab();
    fireEvent.change(screen.getByLabelText('Search suppressed phones'), { target: { value: ' 555 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const row = await screen.findByTestId('suppression-row');
    expect(row.textContent).toContain('(512) 555-0143');
    expect(row.textContent).toContain('Admin · added 11/20/2026');
    fireEvent.click(within(row).getByRole('button', { name: 'Remove (512) 555-0143 from the suppression list' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove from Suppression List' });
    expect(dialog.textContent).toContain('Leads already withdrawn stay withdrawn.');
    expect(sent.some((s) => s.method === 'DELETE')).toBe(false);
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    });
    await waitFor(() => expect(sent.some((s) => s.method === 'DELETE' && s.url === '/api/admin/suppressions/5125550143')).toBe(true));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Phone removed | (512) 555-0143 is no longer suppressed.'));
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { PARTNER_RATE_LIMIT_MESSAGE } from '@warmline/contracts/partners';
import { PartnerApplicationPage } from '../src/features/partners/partner-application-page';
import { addDocuments } from '../src/features/partners/partner-documents';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';

/**
 * /affnetwork (issue 14): the spec's messages beside each field before anything is sent (on
 * leaving a field, on submit), the documents' rules in the browser (kind, 10 MB, five), the
 * multipart body with its progress, the 48-hour confirmation, and a refusal that keeps everything
 * typed and attached. The network is a stand-in XMLHttpRequest answering as the gateway would.
 */

type Answer = { status: number; body: unknown };
let answer: Answer;
let sent: Array<{ url: string; method: string; headers: Record<string, string>; body: FormData }>;

class FakeXhr {
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = '';
  private url = '';
  private headers: Record<string, string> = {};
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  abort() {
    this.onabort?.();
  }
  send(body: FormData) {
    sent.push({ url: this.url, method: this.method, headers: this.headers, body });
    const total = 10_000;
    setTimeout(() => {
      this.upload.onprogress?.({ loaded: total / 2, total, lengthComputable: true });
      setTimeout(() => {
        this.upload.onprogress?.({ loaded: total, total, lengthComputable: true });
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 30);
    }, 30);
  }
}

beforeEach(() => {
  sent = [];
  answer = { status: 201, body: { message: "Application submitted! We'll review it within 48 hours.", id: '7d3c1f7e-0c1a-4bb0-9b7e-6a4f3f2e1d00' } };
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? `${latest.title}${latest.description ? ` | ${latest.description}` : ''}` : ''}</output>;
}

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/affnetwork']}>
        <PartnerApplicationPage />
        <LatestToast />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const leave = (label: string) => fireEvent.blur(field(label));
/** The message tied to a field (aria-describedby), as a screen reader would read it. */
function messageOf(label: string): string | null {
  const ids = field(label).getAttribute('aria-describedby');
  if (!ids || field(label).getAttribute('aria-invalid') !== 'true') return null;
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const LONG = 'We run inbound final expense campaigns in twelve states, with TCPA consent on every lead we sell.';

function fillValid() {
  type('Business Name', 'Lone Star Leads LLC');
  type('Contact Name', 'Maria Gonzales');
  type('Email', 'maria@lonestarleads.example');
  type('Phone', '(512) 555-0143');
  type('Website', 'lonestarleads.example');
  type('Business Type', 'Lead Generation');
  type('Years of Experience', '3-5 years');
  type('Monthly Lead Volume', '1000-5000');
  fireEvent.click(screen.getByLabelText('Aged Leads'));
  fireEvent.click(screen.getByLabelText('Call Transfers'));
  type('Target Markets', 'Final expense in Texas and Florida');
  type('Business Description', LONG);
  type('Why do you want to partner with WarmLine?', `${LONG} We would like to sell aged leads through WarmLine.`);
  fireEvent.click(screen.getByLabelText(/I agree to the terms and conditions/));
}

function file(name: string, size = 2048, type = 'application/pdf'): File {
  const made = new File(['%PDF-1.4 test'], name, { type, lastModified: 1_700_000_000_000 + size });
  Object.defineProperty(made, 'size', { value: size });
  return made;
}
const picker = () => screen.getByLabelText('Documents', { selector: 'input' });
const choose = (...files: File[]) => fireEvent.change(picker(), { target: { files } });
const attached = () =>
  screen.queryByRole('list', { name: 'Attached documents' }) ? within(screen.getByRole('list', { name: 'Attached documents' })).getAllByRole('listitem').map((li) => li.textContent) : [];

describe('the Partner Network Application form', () => {
  it('when a field is left with a wrong answer, then the spec’s message shows beside it, and goes once the answer is right', () => {
    renderPage();
    type('Email', 'maria@');
    leave('Email');
    expect(messageOf('Email')).toBe('Invalid email address');
    type('Business Description', 'We sell leads.');
    leave('Business Description');
    expect(messageOf('Business Description')).toBe('Please provide at least 50 characters');
    type('Website', 'not a site');
    leave('Website');
    expect(messageOf('Website')).toBe('Please enter a valid website URL');
    type('Phone', '555-0143');
    leave('Phone');
    expect(messageOf('Phone')).toBe('Phone number must be at least 10 digits');

    // The message follows the typing once shown: it goes as soon as the answer is right.
    type('Email', 'maria@lonestarleads.example');
    expect(messageOf('Email')).toBeNull();
    type('Business Description', LONG);
    expect(messageOf('Business Description')).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('when a field is only passed through, then it says nothing until Submit', () => {
    renderPage();
    fireEvent.focus(field('Business Name'));
    leave('Business Name');
    expect(messageOf('Business Name')).toBeNull();
  });

  it('when Submit is pressed on an empty form, then every required message shows beside its field, the cursor is in the first, and nothing is sent', () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(messageOf('Business Name')).toBe('Business name is required');
    expect(messageOf('Contact Name')).toBe('Contact name is required');
    expect(messageOf('Email')).toBe('Invalid email address');
    expect(messageOf('Phone')).toBe('Phone number must be at least 10 digits');
    expect(messageOf('Website')).toBe('Please enter a valid website URL');
    expect(messageOf('Business Type')).toBe('Please select a business type');
    expect(messageOf('Target Markets')).toBe('Target markets are required');
    expect(messageOf('Why do you want to partner with WarmLine?')).toBe('Please provide at least 50 characters');
    const services = screen.getByRole('group', { name: /Services You’re Interested In/ });
    expect(services.getAttribute('aria-invalid')).toBe('true');
    expect(within(services).getByText('Please select at least one service')).toBeTruthy();
    expect(messageOf('I agree to the terms and conditions of the WarmLine Partner Network, and to be contacted about my application.')).toBe(
      'You must agree to the terms and conditions',
    );
    expect(document.activeElement).toBe(field('Business Name'));
    expect(sent).toHaveLength(0);
  });

  it('offers the six kinds of document in the picker', () => {
    renderPage();
    expect(picker().getAttribute('accept')).toBe('.pdf,.doc,.docx,.jpg,.jpeg,.png');
    expect(picker().hasAttribute('multiple')).toBe(true);
  });

  it('when documents are chosen, then each is listed with its name and size and can be removed; a wrong kind, one over 10 MB and an empty one are refused with the reason', () => {
    renderPage();
    choose(file('w9-form.pdf', 48_000), file('license.png', 1_500_000, 'image/png'));
    expect(attached()).toEqual(['w9-form.pdf46.9 KBRemove', 'license.png1.4 MBRemove']);
    expect(screen.getByText('2 of 5 documents attached')).toBeTruthy();

    choose(file('setup.exe', 1000, 'application/octet-stream'), file('scan.pdf', 11 * 1024 * 1024), file('blank.docx', 0));
    const refused = screen.getByRole('alert');
    expect(refused.textContent).toContain('setup.exe is not a PDF, Word (.doc, .docx), JPG or PNG file');
    expect(refused.textContent).toContain('scan.pdf is 11 MB; each document can be at most 10 MB');
    expect(refused.textContent).toContain('blank.docx is empty');
    expect(attached()).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: 'Remove w9-form.pdf' }));
    expect(attached()).toEqual(['license.png1.4 MBRemove']);
    // The cursor moves to the next Remove button, not to the top of the page.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove license.png' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove license.png' }));
    expect(attached()).toEqual([]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose Files' }));
  });

  it('when more than five documents are chosen, then five are attached and the rest refused', () => {
    renderPage();
    choose(...[1, 2, 3, 4, 5, 6, 7].map((n) => file(`doc-${n}.pdf`, 1000 + n)));
    expect(attached()).toHaveLength(5);
    expect(screen.getByRole('alert').textContent).toContain('doc-6.pdf was not added: at most 5 documents can be attached');
    expect(screen.getByRole('alert').textContent).toContain('doc-7.pdf was not added');
    expect((screen.getByRole('button', { name: 'Choose Files' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('when files are dropped on the zone, then they are checked and attached as chosen ones are', () => {
    renderPage();
    const zone = screen.getByTestId('document-drop-zone');
    const dataTransfer = { types: ['Files'], files: [file('company-overview.docx', 30_000), file('notes.txt', 10, 'text/plain')] };
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone.className).toContain('partner-docs__zone--over');
    fireEvent.drop(zone, { dataTransfer });
    expect(zone.className).not.toContain('partner-docs__zone--over');
    expect(attached()).toEqual(['company-overview.docx29.3 KBRemove']);
    expect(screen.getByRole('alert').textContent).toContain('notes.txt is not a PDF');
  });

  it('when the form is right, then it is sent as multipart with the documents under a progress bar, and the confirmation promises a review within 48 hours', async () => {
    renderPage();
    fillValid();
    choose(file('w9-form.pdf', 48_000), file('license.jpg', 90_000, 'image/jpeg'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));

    expect(await screen.findByRole('progressbar')).toBeTruthy();
    expect(screen.getByText('Sending your application and 2 documents…')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50'));

    const heading = await screen.findByRole('heading', { name: 'Application Submitted!' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText(/within 48 hours/).textContent).toContain('maria@lonestarleads.example');

    expect(sent).toHaveLength(1);
    const [request] = sent;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/api/affnetwork-signup');
    expect(request!.headers['X-Requested-With']).toBe('XMLHttpRequest');
    const body = request!.body;
    expect(body.get('businessName')).toBe('Lone Star Leads LLC');
    expect(body.get('website')).toBe('https://lonestarleads.example');
    expect(body.get('businessType')).toBe('Lead Generation');
    expect(body.get('experienceYears')).toBe('3-5 years');
    expect(body.get('monthlyVolume')).toBe('1000-5000');
    // In the order the boxes are on screen, as JSON text (spec §7).
    expect(body.get('servicesInterested')).toBe(JSON.stringify(['Call Transfers', 'Aged Leads']));
    expect(body.get('agreeToTerms')).toBe('true');
    expect((body.get('file_0') as File).name).toBe('w9-form.pdf');
    expect((body.get('file_1') as File).name).toBe('license.jpg');
    expect(body.get('file_2')).toBeNull();
  });

  it('when the server refuses a field, then its reason is beside that field, the toast says so, and everything typed and attached is still there', async () => {
    answer = { status: 400, body: { error: 'Invalid email address', issues: [{ path: 'email', message: 'Invalid email address' }] } };
    renderPage();
    fillValid();
    choose(file('w9-form.pdf', 48_000));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));

    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to submit application | Invalid email address'));
    expect(messageOf('Email')).toBe('Invalid email address');
    expect(document.activeElement).toBe(field('Email'));
    expect(screen.getByText(/Your answers and documents are still here/)).toBeTruthy();
    expect(field('Business Name').value).toBe('Lone Star Leads LLC');
    expect((screen.getByLabelText('Aged Leads') as HTMLInputElement).checked).toBe(true);
    expect(field('Business Description').value).toBe(LONG);
    expect(attached()).toEqual(['w9-form.pdf46.9 KBRemove']);
    expect(screen.queryByRole('progressbar')).toBeNull();

    // Submitted again as it stands.
    answer = { status: 201, body: { message: 'ok', id: 'x' } };
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByRole('heading', { name: 'Application Submitted!' })).toBeTruthy();
    expect(sent).toHaveLength(2);
    expect((sent[1]!.body.get('file_0') as File).name).toBe('w9-form.pdf');
  });

  it('when the server refuses a document, then its reason is under the documents', async () => {
    answer = { status: 400, body: { error: 'w9-form.pdf is not a PDF: its content is of another kind' } };
    renderPage();
    fillValid();
    choose(file('w9-form.pdf', 48_000));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));
    const documents = screen.getByRole('group', { name: /Documents/ });
    await waitFor(() => expect(within(documents).getByText('w9-form.pdf is not a PDF: its content is of another kind')).toBeTruthy());
    expect(documents.getAttribute('aria-describedby')).toContain(within(documents).getByText('w9-form.pdf is not a PDF: its content is of another kind').id);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose Files' }));
  });

  it('when this address sent too many applications, then the toast and the form say so, and nothing is lost', async () => {
    answer = { status: 429, body: { error: PARTNER_RATE_LIMIT_MESSAGE } };
    renderPage();
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe(`Failed to submit application | ${PARTNER_RATE_LIMIT_MESSAGE}`));
    const alert = screen.getAllByRole('alert').find((a) => a.textContent?.includes(PARTNER_RATE_LIMIT_MESSAGE));
    expect(alert?.textContent).toContain('Failed to submit application');
    expect(field('Contact Name').value).toBe('Maria Gonzales');
  });

  it('when the connection drops, then it says so and keeps the form', async () => {
    vi.stubGlobal(
      'XMLHttpRequest',
      class extends FakeXhr {
        override send(body: FormData) {
          sent.push({ url: '', method: 'POST', headers: {}, body });
          setTimeout(() => this.onerror?.(), 10);
        }
      },
    );
    renderPage();
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Application' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Failed to submit application | The connection to the server was lost'));
    expect(field('Business Name').value).toBe('Lone Star Leads LLC');
    await act(async () => undefined);
  });
});

describe('addDocuments', () => {
  it('takes a file once, and judges the kind by the name in any case', () => {
    const a = file('Scan.PDF', 100);
    const { files, refused } = addDocuments([a], [a, file('photo.JPEG', 200, 'image/jpeg')]);
    expect(files.map((f) => f.name)).toEqual(['Scan.PDF', 'photo.JPEG']);
    expect(refused).toEqual(['Scan.PDF is already attached']);
  });

  it('takes a file of exactly 10 MB and refuses one byte more', () => {
    expect(addDocuments([], [file('a.pdf', 10 * 1024 * 1024)]).files).toHaveLength(1);
    expect(addDocuments([], [file('b.pdf', 10 * 1024 * 1024 + 1)]).refused).toHaveLength(1);
  });
});

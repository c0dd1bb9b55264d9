import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import {
  CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE,
  CALLBACK_FILE_ERROR_MESSAGE,
  CALLBACK_PARSE_FAILED_MESSAGE,
  CALLBACK_PHONE_MESSAGE,
  CALLBACK_UPLOAD_FAILED_MESSAGE,
  type CallbackOpportunity,
  type VendorKey,
} from '@warmline/contracts/callbacks';
import { CallbackOpportunitiesTab } from '../src/features/admin/callback-opportunities/callback-opportunities-tab';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { SiteConfigProvider, type SiteConfig } from '../src/lib/site-config';
import { TEST_SITE } from './site-config-fixture';
import { stubApi } from './stub-api';

/**
 * The Upload Callback Opportunities tab (issue 15): vendor keys (the new key shown once), the CSV
 * upload parsed in the browser (rows sent, rejected rows listed, unreadable files refused with the
 * spec's panel and toast), the manual form's messages and the list. The network is a stand-in
 * `fetch` answering as the gateway would.
 */

const KEY_ID = '5b0c1c53-2a8e-4c39-9d43-51e0b2f1a001';
const REVOKED_ID = '5b0c1c53-2a8e-4c39-9d43-51e0b2f1a002';
const OPPORTUNITY_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87';
const AGENT_ID = '3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6b';

const KEYS: VendorKey[] = [
  {
    id: KEY_ID,
    name: 'BrightCall',
    keyHint: 'wlv_a1b2',
    createdAt: '2026-11-20T15:00:00.000Z',
    createdBy: 'Ada Admin',
    lastUsedAt: null,
    callsReceived: 1234,
    revokedAt: null,
  },
  {
    id: REVOKED_ID,
    name: 'Old Dialer',
    keyHint: 'wlv_zz99',
    createdAt: '2026-10-01T15:00:00.000Z',
    createdBy: null,
    lastUsedAt: '2026-10-02T15:00:00.000Z',
    callsReceived: 7,
    revokedAt: '2026-10-03T15:00:00.000Z',
  },
];

const WAITING: CallbackOpportunity = {
  id: OPPORTUNITY_ID,
  firstName: 'Maria',
  lastName: 'Lopez',
  phone: '5125550143',
  state: null,
  price: '15.00',
  source: 'vendor',
  vendorName: 'BrightCall',
  transcript: 'Prospect: Please call me back tomorrow after 3 pm.',
  callbackTime: '2026-11-26T21:00:00.000Z',
  callOutcome: 'callback_requested',
  leadQuality: 'hot',
  interestLevel: 'high',
  status: 'available',
  suppressedAt: null,
  assignedUserId: null,
  assignedAt: null,
  expiresAt: '2026-11-29T21:00:00.000Z',
  createdAt: '2026-11-25T21:00:00.000Z',
  callbackTimeOutsideCallingHours: false,
};

type Answer = { status: number; body: unknown; total?: number };
let answers: Record<string, Answer>;
let sent: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  sent = [];
  answers = {
    'GET /api/admin/vendor-keys': { status: 200, body: KEYS },
    'GET /api/callback-opportunities?page=1': { status: 200, body: [WAITING], total: 1 },
  };
  sent = stubApi(answers).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? `${latest.title}${latest.description ? ` | ${latest.description}` : ''}` : ''}</output>;
}

function renderTab(site?: SiteConfig) {
  const tab = (
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/admin?tab=upload-callbacks']}>
        <CallbackOpportunitiesTab />
        <LatestToast />
      </MemoryRouter>
    </QueryClientProvider>
  );
  render(site ? <SiteConfigProvider value={site}>{tab}</SiteConfigProvider> : tab);
}

const toastText = () => screen.getByTestId('toast').textContent;
const manual = () => within(screen.getByRole('region', { name: 'Add Manually' }));
const filePanel = () => screen.getByText(CALLBACK_FILE_ERROR_MESSAGE).closest('[role="alert"]')?.textContent ?? '';
const posts = (url: string) => sent.filter((r) => r.method === 'POST' && r.url === url);

function chooseFile(text: string, name = 'callbacks.csv') {
  const input = screen.getByLabelText('CSV file');
  fireEvent.change(input, { target: { files: [new File([text], name, { type: 'text/csv' })] } });
}

describe('vendor keys', () => {
  it('lists each key with its hint, creator, use and status; a revoked key has no Revoke', async () => {
    renderTab();
    const rows = await screen.findAllByTestId('vendor-key');
    expect(rows).toHaveLength(2);
    const bright = within(rows[0]!);
    expect(bright.getByText('BrightCall')).toBeTruthy();
    expect(bright.getByText('wlv_a1b2…')).toBeTruthy();
    expect(bright.getByText(/ by Ada Admin$/)).toBeTruthy();
    expect(bright.getByText('Never')).toBeTruthy();
    expect(bright.getByText('1,234')).toBeTruthy();
    expect(bright.getByText('Active')).toBeTruthy();
    expect(bright.getByRole('button', { name: 'Revoke the key of BrightCall' })).toBeTruthy();
    const old = within(rows[1]!);
    expect(old.getByText(/^Revoked /)).toBeTruthy();
    expect(old.queryByRole('button')).toBeNull();
  });

  it('shows a new key once, with a copy button and the warning, and never again after closing', async () => {
    answers['POST /api/admin/vendor-keys'] = { status: 201, body: { id: KEY_ID, name: 'BrightCall', key: 'wlv_a1b2c3d4e5f6secret' } };
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderTab();
    await screen.findAllByTestId('vendor-key');

    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByText('Vendor name is required')).toBeTruthy();
    expect(posts('/api/admin/vendor-keys')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Vendor name'), { target: { value: '  BrightCall ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Key for BrightCall' });
    expect(posts('/api/admin/vendor-keys')[0]!.body).toEqual({ name: 'BrightCall' });
    expect(within(dialog).getByTestId('created-key').textContent).toBe('wlv_a1b2c3d4e5f6secret');
    expect(within(dialog).getByText(/it will not be shown again/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy key' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('wlv_a1b2c3d4e5f6secret'));
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'I have copied the key' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('wlv_a1b2c3d4e5f6secret')).toBeNull();
  });

  it('revokes only after the confirmation', async () => {
    answers[`DELETE /api/admin/vendor-keys/${KEY_ID}`] = { status: 204, body: null };
    renderTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the key of BrightCall' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke Vendor Key' });
    expect(sent.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke Key' }));
    await waitFor(() => expect(toastText()).toBe('Key revoked | BrightCall can no longer post calls with it.'));
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([`/api/admin/vendor-keys/${KEY_ID}`]);
  });
});

describe('the CSV upload', () => {
  it('sends the parsed rows (header in any case, blank price left out) and lists the rejected rows', async () => {
    answers['POST /api/callback-opportunities/bulk'] = {
      status: 200,
      body: { created: 1, rejected: [{ row: 2, field: 'state', message: 'State must be a 2-letter US state code, e.g. TX' }] },
    };
    renderTab();
    chooseFile('\uFEFFfirst name,LAST NAME,Phone,State,Price\r\n"Maria","Lopez, Jr.",(512) 555-0143,tx,\r\nAna,Diaz,2145550100,Texas,20\r\n');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));

    const result = await screen.findByTestId('upload-result');
    expect(posts('/api/callback-opportunities/bulk')[0]!.body).toEqual({
      csvData: [
        { firstName: 'Maria', lastName: 'Lopez, Jr.', phone: '(512) 555-0143', state: 'tx' },
        { firstName: 'Ana', lastName: 'Diaz', phone: '2145550100', state: 'Texas', price: '20' },
      ],
    });
    expect(within(result).getByText('1 opportunity created, 1 row rejected.')).toBeTruthy();
    const rejected = within(result).getAllByTestId('rejected-row');
    expect(rejected.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent))).toEqual([
      ['2', 'State', 'State must be a 2-letter US state code, e.g. TX'],
    ]);
  });

  it('refuses a file without the columns with the error panel and the parse toast, sending nothing', async () => {
    renderTab();
    chooseFile('Name,Phone\nMaria Lopez,5125550143\n');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const panel = await screen.findByText(CALLBACK_FILE_ERROR_MESSAGE);
    expect(panel.closest('[role="alert"]')?.textContent).toContain('The header row has no First Name, Last Name, State columns');
    expect(toastText()).toMatch(new RegExp(`^${CALLBACK_PARSE_FAILED_MESSAGE} \\|`));
    expect(posts('/api/callback-opportunities/bulk')).toHaveLength(0);
  });

  it('refuses an unclosed quote and more than 5,000 rows in the browser', async () => {
    renderTab();
    chooseFile('First Name,Last Name,Phone,State\n"Maria,Lopez,5125550143,TX\n');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await screen.findByText(CALLBACK_FILE_ERROR_MESSAGE);
    expect(filePanel()).toContain('A quoted field opened on line 2 is never closed');

    const many = ['First Name,Last Name,Phone,State', ...Array.from({ length: 5001 }, (_, i) => `A${i},B,5125550143,TX`)].join('\n');
    chooseFile(many);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(filePanel()).toContain('The file has 5,001 rows; at most 5,000 can be uploaded at once'));
    expect(posts('/api/callback-opportunities/bulk')).toHaveLength(0);
  });

  it('refuses a file under 2 MB whose rows would make a body over 2 MB', async () => {
    renderTab();
    // 5,000 rows of 380 characters: about 1.9 MB of CSV, about 2.2 MB as the bulk call's JSON.
    const row = ['F'.repeat(100), 'L'.repeat(100), '5'.repeat(100), 'T'.repeat(50), '1'.repeat(30)].join(',');
    const text = ['First Name,Last Name,Phone,State,Price', ...Array.from({ length: 5000 }, () => row)].join('\n');
    expect(text.length).toBeLessThan(2 * 1024 * 1024);
    chooseFile(text);
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(filePanel()).toContain('The rows come to more than 2 MB to send'));
    expect(posts('/api/callback-opportunities/bulk')).toHaveLength(0);
  });

  it("says 'Failed to upload callback opportunities' when the server refuses", async () => {
    answers['POST /api/callback-opportunities/bulk'] = { status: 400, body: { error: 'At most 5,000 rows at once' } };
    renderTab();
    chooseFile('First Name,Last Name,Phone,State\nMaria,Lopez,5125550143,TX\n');
    fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(toastText()).toBe(`${CALLBACK_UPLOAD_FAILED_MESSAGE} | At most 5,000 rows at once`));
  });
});

describe('the manual form', () => {
  it("says 'All fields are required' and sends nothing while a field is blank; state is upper-cased as typed", async () => {
    renderTab();
    const state = manual().getByLabelText('State') as HTMLInputElement;
    expect(state.maxLength).toBe(2);
    fireEvent.change(state, { target: { value: 'tx' } });
    expect(state.value).toBe('TX');
    expect((manual().getByLabelText('Price ($)') as HTMLInputElement).value).toBe('15.00');

    fireEvent.click(manual().getByRole('button', { name: 'Add Opportunity' }));
    expect(await screen.findByText(CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE)).toBeTruthy();
    expect(manual().getByLabelText('First name').getAttribute('aria-invalid')).toBe('true');
    expect(state.getAttribute('aria-invalid')).toBeNull();
    expect(posts('/api/callback-opportunities')).toHaveLength(0);
  });

  it("shows a bad phone beside the field before sending, and the server's field message when it refuses", async () => {
    answers['POST /api/callback-opportunities'] = {
      status: 400,
      body: { error: 'State must be a 2-letter US state code, e.g. TX', issues: [{ path: 'state', message: 'State must be a 2-letter US state code, e.g. TX' }] },
    };
    renderTab();
    fireEvent.change(manual().getByLabelText('First name'), { target: { value: 'Maria' } });
    fireEvent.change(manual().getByLabelText('Last name'), { target: { value: 'Lopez' } });
    fireEvent.change(manual().getByLabelText('Phone'), { target: { value: '555' } });
    fireEvent.change(manual().getByLabelText('State'), { target: { value: 'TX' } });
    fireEvent.click(manual().getByRole('button', { name: 'Add Opportunity' }));
    expect(await screen.findByText(CALLBACK_PHONE_MESSAGE)).toBeTruthy();
    expect(screen.queryByText(CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE)).toBeNull();
    expect(posts('/api/callback-opportunities')).toHaveLength(0);

    fireEvent.change(manual().getByLabelText('Phone'), { target: { value: '(512) 555-0143' } });
    fireEvent.click(manual().getByRole('button', { name: 'Add Opportunity' }));
    await waitFor(() => expect(posts('/api/callback-opportunities')).toHaveLength(1));
    expect(posts('/api/callback-opportunities')[0]!.body).toEqual({ firstName: 'Maria', lastName: 'Lopez', phone: '(512) 555-0143', state: 'TX', price: '15.00' });
    const stateField = manual().getByLabelText('State');
    await waitFor(() => expect(stateField.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(stateField.getAttribute('aria-describedby')!)?.textContent).toBe('State must be a 2-letter US state code, e.g. TX');
    expect(toastText()).toMatch(/^Failed to add callback opportunity \|/);
  });
});

describe('the manual form and the CSV: one rule (issue 22)', () => {
  it('sends a blank price (the server prices it at 15.00) and shows a refused phone (409) beside the field', async () => {
    answers['POST /api/callback-opportunities'] = { status: 409, body: { error: 'Phone is on the suppression list' } };
    renderTab();
    fireEvent.change(manual().getByLabelText('First name'), { target: { value: 'Maria' } });
    fireEvent.change(manual().getByLabelText('Last name'), { target: { value: 'Lopez' } });
    fireEvent.change(manual().getByLabelText('Phone'), { target: { value: '(512) 555-6167' } });
    fireEvent.change(manual().getByLabelText('State'), { target: { value: 'TX' } });
    fireEvent.change(manual().getByLabelText('Price ($)'), { target: { value: '' } });
    fireEvent.click(manual().getByRole('button', { name: 'Add Opportunity' }));

    await waitFor(() => expect(posts('/api/callback-opportunities')).toHaveLength(1));
    expect(posts('/api/callback-opportunities')[0]!.body).toMatchObject({ price: '' });
    expect(screen.queryByText(CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE)).toBeNull();
    const phone = manual().getByLabelText('Phone');
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(phone.getAttribute('aria-describedby')!)?.textContent).toBe('Phone is on the suppression list');
    expect(manual().getByText(/^What the agent who receives it is charged/)).toBeTruthy();
  });
});

describe('the opportunities list', () => {
  it('shows an opportunity with its vendor, transcript and Needs state; setting a state PATCHes it', async () => {
    answers[`PATCH /api/callback-opportunities/${OPPORTUNITY_ID}`] = { status: 200, body: { ...WAITING, state: 'TX' } };
    renderTab();
    const card = await screen.findByRole('listitem', { name: 'Maria Lopez' });
    const the = within(card);
    expect(the.getByText('(512) 555-0143')).toBeTruthy();
    expect(the.getByText('Vendor: BrightCall')).toBeTruthy();
    expect(the.getByText('$15.00')).toBeTruthy();
    expect(the.getByText('Needs state')).toBeTruthy();
    expect(the.getByText('Callback requested')).toBeTruthy();
    expect(the.getByText('Transcript')).toBeTruthy();
    expect(the.getByText('Prospect: Please call me back tomorrow after 3 pm.')).toBeTruthy();

    fireEvent.change(the.getByLabelText('State of Maria Lopez'), { target: { value: 'TX' } });
    fireEvent.click(the.getByRole('button', { name: 'Set state' }));
    await waitFor(() => expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ state: 'TX' }));
  });

  it('shows the call-back, expiry and creation times on the business clock (BUSINESS_TIMEZONE), naming its zone (issue 22)', async () => {
    renderTab(TEST_SITE);
    const card = within(await screen.findByRole('listitem', { name: 'Maria Lopez' }));
    // 21:00 UTC on Nov 26 is 3 PM in Chicago.
    expect(card.getByText('11/26/2026, 3:00 PM CST')).toBeTruthy();
    expect(card.getByText('11/29/2026, 3:00 PM CST')).toBeTruthy();
  });

  it('filters on the server, exports what the filters match, and assigns to an agent who bought call-backs, shown with balance and states', async () => {
    answers['GET /api/callback-opportunities?state=NONE&page=1'] = { status: 200, body: [{ ...WAITING, state: 'TX' }], total: 1 };
    answers['GET /api/admin/callback-agents'] = {
      status: 200,
      body: [
        { userId: '3f1d2c4b-5a69-4788-9a0b-1c2d3e4f5a6c', firstName: 'Out', lastName: 'Ofstate', email: 'out@agency.example', balance: 9, states: ['FL'] },
        { userId: AGENT_ID, firstName: 'Jane', lastName: 'Agent', email: 'jane@agency.example', balance: 3, states: ['OK', 'TX'] },
      ],
    };
    answers[`POST /api/callback-opportunities/${OPPORTUNITY_ID}/assign`] = { status: 200, body: { ...WAITING, status: 'assigned' } };
    renderTab();
    await screen.findByRole('listitem', { name: 'Maria Lopez' });
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/callback-opportunities/export.csv');
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'NONE' } });
    await waitFor(() => expect(sent.some((r) => r.url === '/api/callback-opportunities?state=NONE&page=1')).toBe(true));
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/callback-opportunities/export.csv?state=NONE');

    fireEvent.click(await screen.findByRole('button', { name: 'Assign Maria Lopez' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Call-back' });
    const listed = await within(dialog).findAllByTestId('assign-agent');
    // The agent working the opportunity's state first, each with balance and states.
    expect(listed.map((li) => li.textContent)).toEqual([
      expect.stringContaining('Jane Agentjane@agency.exampleBalance: 3 call-backs · States: OK, TX'),
      expect.stringContaining('Balance: 9 call-backs · States: FL (not TX)'),
    ]);
    expect(sent.some((r) => r.url.startsWith('/api/users'))).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Find an agent/), { target: { value: 'jane' } });
    expect(within(dialog).getAllByTestId('assign-agent')).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign to Jane Agent' }));
    await waitFor(() => expect(posts(`/api/callback-opportunities/${OPPORTUNITY_ID}/assign`)[0]?.body).toEqual({ userId: AGENT_ID }));
    await waitFor(() => expect(toastText()).toBe("Call-back assigned | Maria Lopez is now Jane Agent's."));
  });

  it('shows a suppressed one as Suppressed, with when, and no Assign', async () => {
    answers['GET /api/callback-opportunities?page=1'] = {
      status: 200,
      body: [{ ...WAITING, state: 'TX', status: 'suppressed', suppressedAt: '2026-11-26T15:00:00.000Z' }],
      total: 1,
    };
    renderTab();
    const card = within(await screen.findByRole('listitem', { name: 'Maria Lopez' }));
    expect(card.getByText('Suppressed', { selector: '.callback-status' })).toBeTruthy();
    expect(card.getByText(/^The phone is on the suppression list: this opportunity is not sold\.$/)).toBeTruthy();
    expect(card.queryByRole('button', { name: 'Assign Maria Lopez' })).toBeNull();
  });
});

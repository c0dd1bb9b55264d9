import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  CALLING_HOURS,
  ROUTE_REFUSAL_REASONS,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_REPEAT_PHONE_DAYS,
  TRANSFER_RESERVATION_SECONDS,
  TRANSFER_ROUTE_PATH,
  transferOutcomeBody,
  transferRouteBody,
} from '@warmline/contracts/live-transfers';
import {
  EXAMPLE_OUTCOME_BODY,
  EXAMPLE_ROUTE_BODY,
  TRANSFER_OUTCOME_ANSWER_EXAMPLES,
  TRANSFER_OUTCOME_FIELDS,
  TRANSFER_ROUTE_ANSWER_EXAMPLES,
  TRANSFER_ROUTE_FIELDS,
} from '@warmline/contracts/transfer-docs';
import { BrightcallDocsPage } from '../src/features/brightcall-docs/brightcall-docs-page';
import { outcomeCurlCommand, routeCurlCommand } from '../src/features/brightcall-docs/transfer-docs';

/** /brightcalldocs, live transfers (issue 23 §8): the route and outcome calls, from the schemas the service validates with. */

afterEach(cleanup);

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/brightcalldocs']}>
      <BrightcallDocsPage />
    </MemoryRouter>,
  );
}

const origin = () => window.location.origin;

/** The -d argument of a curl command as the shell hands it over. */
const curlBody = (curl: string): unknown => JSON.parse(curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'")));

describe('/brightcalldocs: live transfers', () => {
  it('names both endpoints from the page origin and every field of both schemas with its type, whether required, limit and example', () => {
    renderPage();
    expect(screen.getByTestId('transfer-route-endpoint').textContent).toBe(`${origin()}${TRANSFER_ROUTE_PATH}`);
    expect(screen.getByTestId('transfer-outcome-endpoint').textContent).toBe(`${origin()}/api/transfers/{transfer_id}/outcome`);
    expect(screen.getByTestId('transfer-auth').textContent).toContain('X-API-Key');
    expect(screen.getByTestId('transfer-auth').textContent).toContain('Authorization: Bearer');

    for (const [testId, fields, schema] of [
      ['transfer-route-field', TRANSFER_ROUTE_FIELDS, transferRouteBody],
      ['transfer-outcome-field', TRANSFER_OUTCOME_FIELDS, transferOutcomeBody],
    ] as const) {
      const rows = screen.getAllByTestId(testId);
      const names = rows.map((r) => within(r).getByRole('rowheader').textContent);
      expect([...names].sort()).toEqual(Object.keys(schema.shape).sort());
      for (const [i, f] of fields.entries()) {
        const cells = Array.from(rows[i]!.querySelectorAll('td'), (td) => td.textContent);
        expect(cells).toEqual([f.type, f.required ? 'Yes' : 'No', f.limit, f.description, f.example]);
      }
    }
  });

  it('shows each answer with its example: routed, every refusal reason, 400, 401, 429; the outcome statuses, 404 and 409', () => {
    renderPage();
    for (const example of ['routed', ...ROUTE_REFUSAL_REASONS, 400, 401, 429] as const) {
      const answer = screen.getByTestId(`transfer-route-answer-${example}`);
      expect(JSON.parse(answer.querySelector('pre')!.textContent!)).toEqual(TRANSFER_ROUTE_ANSWER_EXAMPLES[example]);
    }
    for (const example of ['charged', 'buffer_protected', 'not_connected', 400, 401, 404, 409, 429] as const) {
      const answer = screen.getByTestId(`transfer-outcome-answer-${example}`);
      expect(JSON.parse(answer.querySelector('pre')!.textContent!)).toEqual(TRANSFER_OUTCOME_ANSWER_EXAMPLES[example]);
    }
    expect(screen.getByTestId('transfer-outcome-answer-charged').textContent).toContain('Charged');
    expect(screen.getByTestId('transfer-outcome-answer-buffer_protected').textContent).toContain('Buffer protected — not charged');
  });

  it('states the routing rules and the buffer with the numbers the service uses', () => {
    renderPage();
    const refusals = screen.getByTestId('transfer-refusal-rules').textContent ?? '';
    expect(refusals).toContain('suppressed');
    expect(refusals).toContain(`${CALLING_HOURS.from}–${CALLING_HOURS.to}`);
    const eligibility = Array.from(screen.getByTestId('transfer-eligibility-rules').querySelectorAll('li strong'), (s) => s.textContent);
    expect(eligibility).toEqual(['Balance:', 'States:', 'Hours:', 'Daily cap:', 'Not paused:', 'At once:', 'No repeat:']);
    expect(screen.getByTestId('transfer-eligibility-rules').textContent).toContain(`last ${TRANSFER_REPEAT_PHONE_DAYS} days`);
    expect(screen.getByTestId('transfer-rotation-rule').textContent).toContain('waited longest');
    const reservation = screen.getByTestId('transfer-reservation-rules').textContent ?? '';
    expect(reservation).toContain(`${TRANSFER_RESERVATION_SECONDS} seconds`);
    expect(reservation).toContain('same call_id');
    const charging = screen.getByTestId('transfer-charging-rules').textContent ?? '';
    expect(charging).toContain(`${TRANSFER_BUFFER_SECONDS} seconds or less`);
    expect(charging).toContain(`more than ${TRANSFER_BUFFER_SECONDS} seconds`);
    expect(charging).toContain('409');
    expect(screen.getByRole('heading', { level: 2, name: `Charging: the ${TRANSFER_BUFFER_SECONDS}-second buffer` })).toBeTruthy();
  });

  it('gives a copyable curl for each call whose body its schema accepts', () => {
    renderPage();
    const route = screen.getByTestId('transfer-route-curl').textContent!;
    expect(route).toBe(routeCurlCommand(origin()));
    expect(route).toContain(`curl -X POST '${origin()}${TRANSFER_ROUTE_PATH}'`);
    expect(route).toContain("-H 'X-API-Key: YOUR_VENDOR_KEY'");
    expect(curlBody(route)).toEqual(EXAMPLE_ROUTE_BODY);
    expect(transferRouteBody.safeParse(curlBody(route)).success).toBe(true);

    const outcome = screen.getByTestId('transfer-outcome-curl').textContent!;
    expect(outcome).toBe(outcomeCurlCommand(origin()));
    expect(outcome).toContain(`curl -X POST '${origin()}/api/transfers/YOUR_TRANSFER_ID/outcome'`);
    expect(curlBody(outcome)).toEqual(EXAMPLE_OUTCOME_BODY);
    expect(transferOutcomeBody.safeParse(curlBody(outcome)).success).toBe(true);

    expect(screen.getByRole('button', { name: 'Copy route curl command' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy outcome curl command' })).toBeTruthy();
    // The webhook's own curl stays the page's first one.
    expect(screen.getByRole('button', { name: 'Copy curl command' })).toBeTruthy();
  });
});

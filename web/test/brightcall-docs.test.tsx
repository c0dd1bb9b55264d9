import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import {
  CALLBACK_WEBHOOK_PATH,
  OPPORTUNITY_OUTCOMES,
  SUPPRESSING_OUTCOMES,
  WEBHOOK_ANSWER_EXAMPLES,
  WEBHOOK_FIELDS,
  callbackWebhookBody,
} from '@warmline/contracts/callbacks';
import { BrightcallDocsPage, curlCommand, exampleBody } from '../src/features/brightcall-docs/brightcall-docs-page';

/** /brightcalldocs (issue 15 §8): generated from the contracts the webhook validates with. */

afterEach(cleanup);

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/brightcalldocs']}>
      <BrightcallDocsPage />
    </MemoryRouter>,
  );
}

describe('/brightcalldocs', () => {
  it('names the endpoint from the page origin, both headers and every field with type, required and max length', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('BrightCall Webhook Integration');
    expect(screen.getByTestId('webhook-endpoint').textContent).toBe(`${window.location.origin}${CALLBACK_WEBHOOK_PATH}`);
    const auth = screen.getByRole('region', { name: 'Authentication' });
    expect(auth.textContent).toContain('X-API-Key: YOUR_VENDOR_KEY');
    expect(auth.textContent).toContain('Authorization: Bearer YOUR_VENDOR_KEY');

    const rows = screen.getAllByTestId('webhook-field');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(WEBHOOK_FIELDS.map((f) => f.name));
    for (const [i, f] of WEBHOOK_FIELDS.entries()) {
      const cells = Array.from(rows[i]!.querySelectorAll('td'), (td) => td.textContent);
      expect(cells).toEqual([f.type, f.required ? 'Yes' : 'No', f.maxLength.toLocaleString('en-US'), f.description, f.example]);
    }
  });

  it('states the outcomes, the repeat rule and each answer with its example', () => {
    renderPage();
    for (const o of OPPORTUNITY_OUTCOMES) expect(screen.getByTestId('opportunity-outcomes').textContent).toContain(`'${o}'`);
    for (const o of SUPPRESSING_OUTCOMES) expect(screen.getByTestId('suppressing-outcomes').textContent).toContain(`'${o}'`);
    const rules = screen.getByTestId('repeat-rules').textContent ?? '';
    expect(rules).toContain('Idempotency-Key');
    expect(rules).toContain('callback_time');
    expect(rules).toContain('24 hours');
    for (const status of [200, 400, 401, 429, 500] as const) {
      const answer = screen.getByTestId(`answer-${status}`);
      expect(JSON.parse(answer.querySelector('pre')!.textContent!)).toEqual(WEBHOOK_ANSWER_EXAMPLES[status]);
    }
  });

  it('gives a curl command whose body is a valid webhook body', () => {
    renderPage();
    const curl = screen.getByTestId('curl-command').textContent!;
    expect(curl).toBe(curlCommand(window.location.origin));
    expect(curl).toContain(`curl -X POST '${window.location.origin}${CALLBACK_WEBHOOK_PATH}'`);
    expect(curl).toContain("-H 'X-API-Key: YOUR_VENDOR_KEY'");
    expect(screen.getByRole('button', { name: 'Copy curl command' })).toBeTruthy();
    // The -d argument as a shell hands it over: the examples have no single quote to unescape.
    expect(curl).not.toContain(`'\\''`);
    const data = curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'"));
    expect(JSON.parse(data)).toEqual(exampleBody());
    expect(callbackWebhookBody.safeParse(exampleBody()).success).toBe(true);
  });
});

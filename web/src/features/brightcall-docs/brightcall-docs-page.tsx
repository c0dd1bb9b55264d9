import { useState } from 'react';
import {
  CALLBACK_WEBHOOK_PATH,
  OPPORTUNITY_OUTCOMES,
  SUPPRESSING_OUTCOMES,
  VENDOR_KEY_HEADER,
  VENDOR_KEY_PREFIX,
  WEBHOOK_ANSWER_EXAMPLES,
  WEBHOOK_FIELDS,
  WEBHOOK_REPEAT_MESSAGE,
  WEBHOOK_REPEAT_WINDOW_HOURS,
} from '@warmline/contracts/callbacks';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { usePageTitle } from '../../lib/page-title';
import './brightcall-docs.css';

/** The page's title (the placeholder's, kept: the spec names the page only by its route). */
const BRIGHTCALL_DOCS_TITLE = 'BrightCall Webhook Integration';

/** What each answer means, beside its example (the examples themselves come from the contracts). */
const ANSWERS: Array<{ status: keyof typeof WEBHOOK_ANSWER_EXAMPLES; title: string; text: string }> = [
  { status: 200, title: '200 OK', text: `The call is stored. Keep callback_id: a repeat of the same call answers the same id with the message '${WEBHOOK_REPEAT_MESSAGE}'.` },
  { status: 400, title: '400 Bad Request', text: 'A required field is missing or a field is invalid; fields names each one and errors says what is wrong with it. Fix the body before sending again.' },
  { status: 401, title: '401 Unauthorized', text: 'No key, an unknown key or a revoked key. Ask WarmLine for a new key.' },
  { status: 429, title: '429 Too Many Requests', text: 'You are sending faster than allowed. Wait the number of seconds in the Retry-After header, then send the same call again.' },
  { status: 500, title: '500 Internal Server Error', text: 'Nothing was stored. Send the same call again later (with the same Idempotency-Key); it will not be counted twice.' },
];

/** The example body: every field with its example value. */
export function exampleBody(): Record<string, string> {
  return Object.fromEntries(WEBHOOK_FIELDS.map((f) => [f.name, f.example]));
}

/** A curl command a vendor can paste, with the key and a call id to fill in. */
export function curlCommand(origin: string): string {
  const json = JSON.stringify(exampleBody(), null, 2).replace(/'/g, `'\\''`);
  return [
    `curl -X POST '${origin}${CALLBACK_WEBHOOK_PATH}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H '${VENDOR_KEY_HEADER}: YOUR_VENDOR_KEY' \\`,
    `  -H 'Idempotency-Key: YOUR_CALL_ID' \\`,
    `  -d '${json}'`,
  ].join('\n');
}

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`);

/**
 * /brightcalldocs (spec §2, §7; issue 15 §8): everything a voice-AI vendor needs to post its calls,
 * generated from the contracts the ingestion service validates with, so it cannot say something the
 * service does not do.
 */
export function BrightcallDocsPage() {
  usePageTitle(BRIGHTCALL_DOCS_TITLE);
  const origin = window.location.origin;
  const endpoint = `${origin}${CALLBACK_WEBHOOK_PATH}`;
  const curl = curlCommand(origin);

  return (
    <div className="public-page">
      <SiteHeader />
      <main id="main" className="public-page__main">
        <article className="card webhook-docs">
          <h1 className="webhook-docs__title">{BRIGHTCALL_DOCS_TITLE}</h1>
          <p className="webhook-docs__lead">
            Post the outcome of each call your voice AI makes to WarmLine. A prospect who asks to be called back becomes a callback opportunity that we
            deliver to an insurance agent.
          </p>

          <nav aria-label="On this page" className="webhook-docs__toc">
            <a href="#endpoint">Endpoint</a>
            <a href="#authentication">Authentication</a>
            <a href="#fields">Fields</a>
            <a href="#outcomes">Outcomes</a>
            <a href="#repeats">Repeats</a>
            <a href="#answers">Answers</a>
            <a href="#example">Example</a>
          </nav>

          <section aria-labelledby="endpoint">
            <h2 id="endpoint">Endpoint</h2>
            <p>
              <code className="webhook-docs__method">POST</code> <code data-testid="webhook-endpoint">{endpoint}</code>
            </p>
            <p>
              The body is one JSON object (<code>Content-Type: application/json</code>), one call per request. We answer at once; the opportunity is
              made right after.
            </p>
          </section>

          <section aria-labelledby="authentication">
            <h2 id="authentication">Authentication</h2>
            <p>Send the key WarmLine gave you (it starts with <code>{VENDOR_KEY_PREFIX}</code>) in either header:</p>
            <pre className="webhook-docs__code" tabIndex={0}>
              <code>{`${VENDOR_KEY_HEADER}: YOUR_VENDOR_KEY\nAuthorization: Bearer YOUR_VENDOR_KEY`}</code>
            </pre>
            <p>Keep the key secret, on your servers only. A missing, wrong or revoked key is answered 401.</p>
          </section>

          <section aria-labelledby="fields">
            <h2 id="fields">Fields</h2>
            <p>Unknown fields are ignored. An optional field sent empty or null counts as not sent. Text is trimmed.</p>
            {/* Wider than a phone: it scrolls, so the keyboard must reach it too. */}
            <div className="webhook-docs__table-wrap" role="region" aria-labelledby="fields" tabIndex={0}>
              <table className="webhook-docs__table">
                <caption className="visually-hidden">Webhook body fields</caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Type</th>
                    <th scope="col">Required</th>
                    <th scope="col">Max length</th>
                    <th scope="col">Description</th>
                    <th scope="col">Example</th>
                  </tr>
                </thead>
                <tbody>
                  {WEBHOOK_FIELDS.map((f) => (
                    <tr key={f.name} data-testid="webhook-field">
                      <th scope="row">
                        <code>{f.name}</code>
                      </th>
                      <td>{f.type}</td>
                      <td>{f.required ? 'Yes' : 'No'}</td>
                      <td>{f.maxLength.toLocaleString('en-US')}</td>
                      <td>{f.description}</td>
                      <td>
                        <code>{f.example}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <section aria-labelledby="outcomes">
            <h2 id="outcomes">Outcomes</h2>
            <p>Every call is stored. What it becomes depends on call_outcome (any letter case):</p>
            <ul>
              <li data-testid="opportunity-outcomes">
                Absent, or {quoted(OPPORTUNITY_OUTCOMES).join(', ')}: a <strong>callback opportunity</strong>. When state is absent it is taken from
                the phone&rsquo;s area code.
              </li>
              <li data-testid="suppressing-outcomes">
                {quoted(SUPPRESSING_OUTCOMES).join(' or ')}: the phone goes on our <strong>do-not-call list</strong>; no opportunity is made.
              </li>
              <li>Any other value: the call is stored only.</li>
            </ul>
          </section>

          <section aria-labelledby="repeats">
            <h2 id="repeats">Repeats</h2>
            <p>Sending the same call again is safe: a repeat answers 200 with the first call&rsquo;s callback_id and creates nothing. A call is a repeat when, for your key:</p>
            <ol data-testid="repeat-rules">
              <li>
                it has the same <code>Idempotency-Key</code> header as an earlier call (send your own call id there; this is the surest way);
              </li>
              <li>
                or else, without that header, it has the same phone number and the same <code>callback_time</code>;
              </li>
              <li>
                or else, without a <code>callback_time</code>, it has the same phone number and the same transcript as a call received in the last{' '}
                {WEBHOOK_REPEAT_WINDOW_HOURS} hours.
              </li>
            </ol>
          </section>

          <section aria-labelledby="answers">
            <h2 id="answers">Answers</h2>
            {ANSWERS.map((a) => (
              <div key={a.status} className="webhook-docs__answer" data-testid={`answer-${a.status}`}>
                <h3>{a.title}</h3>
                <p>{a.text}</p>
                <pre className="webhook-docs__code" tabIndex={0}>
                  <code>{JSON.stringify(WEBHOOK_ANSWER_EXAMPLES[a.status], null, 2)}</code>
                </pre>
              </div>
            ))}
          </section>

          <section aria-labelledby="example">
            <h2 id="example">Example</h2>
            <CopyBlock text={curl} label="Copy curl command" />
          </section>
        </article>
      </main>
      <SiteFooter />
    </div>
  );
}

function CopyBlock({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="webhook-docs__copy">
      <pre className="webhook-docs__code" data-testid="curl-command" tabIndex={0}>
        <code>{text}</code>
      </pre>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setState('copied');
          } catch {
            // No clipboard here (an insecure origin, a refused permission): the command is selectable text.
            setState('failed');
          }
        }}
      >
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className="webhook-docs__copy-status">
        {state === 'failed' ? 'Copying did not work here: select the command and copy it by hand.' : ''}
      </span>
    </div>
  );
}

import {
  CALLBACK_WEBHOOK_PATH,
  OPPORTUNITY_OUTCOMES,
  SUPPRESSING_OUTCOMES,
  VENDOR_KEY_HEADER,
  VENDOR_KEY_PREFIX,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  WEBHOOK_ANSWER_EXAMPLES,
  WEBHOOK_CALLS_PER_MINUTE,
  WEBHOOK_FIELDS,
  WEBHOOK_INVALID_JSON_MESSAGE,
  WEBHOOK_KEY_REUSED_MESSAGE,
  WEBHOOK_MISSING_FIELDS_MESSAGE,
  WEBHOOK_PAST_CALLBACK_MESSAGE,
  WEBHOOK_REPEAT_MESSAGE,
  WEBHOOK_REPEAT_WINDOW_HOURS,
} from '@warmline/contracts/callbacks';
import { SiteFooter, SiteHeader } from '../../components/site-header';
import { usePageTitle } from '../../lib/page-title';
import { CopyBlock } from './copy-block';
import { TransferDocs, TRANSFER_DOCS_TOC } from './transfer-docs';
import './brightcall-docs.css';

/** The page's title (the placeholder's, kept: the spec names the page only by its route). */
const BRIGHTCALL_DOCS_TITLE = 'BrightCall Webhook Integration';

/** What each answer means, beside its example (the examples themselves come from the contracts). */
const ANSWERS: Array<{ example: keyof typeof WEBHOOK_ANSWER_EXAMPLES; title: string; text: string }> = [
  { example: 200, title: '200 OK', text: `The call is stored. Keep callback_id: a repeat of the same call (see Repeats) answers the same id with the message '${WEBHOOK_REPEAT_MESSAGE}'.` },
  {
    example: 400,
    title: `400 Bad Request: '${WEBHOOK_MISSING_FIELDS_MESSAGE}'`,
    text: 'A required field is missing or a field is invalid; fields names each one and errors says what is wrong with it. Nothing was stored: fix the body before sending again.',
  },
  {
    example: 'invalidJson',
    title: `400 Bad Request: '${WEBHOOK_INVALID_JSON_MESSAGE}'`,
    text: 'The body is not one JSON object: malformed JSON, a form-encoded body, an array or a bare value. Nothing was stored: send one JSON object per call.',
  },
  {
    example: 'pastCallbackTime',
    title: `400 Bad Request: '${WEBHOOK_PAST_CALLBACK_MESSAGE}'`,
    text: 'A new call whose callback_time is not later than the moment we receive it is refused, not stored (no one can call back in the past). Send a later time, or leave callback_time out. A repeat of a call we already stored is still answered 200 with its callback_id, even once its time has passed.',
  },
  { example: 401, title: '401 Unauthorized', text: 'No key, an unknown key or a revoked key. Ask WarmLine for a new key.' },
  {
    example: 409,
    title: `409 Conflict: '${WEBHOOK_KEY_REUSED_MESSAGE}'`,
    text: 'The Idempotency-Key was first sent with a different call, named by callback_id. Nothing was stored: send this call again with an Idempotency-Key of its own.',
  },
  { example: 429, title: '429 Too Many Requests', text: 'You are sending faster than allowed (see Rate limit). Wait the number of seconds in the Retry-After header, then send the same call again.' },
  { example: 500, title: '500 Internal Server Error', text: 'Nothing was stored. Send the same call again later (with the same Idempotency-Key); it will not be counted twice.' },
];

/** Tomorrow at 3 pm, written with the example's offset (a fixed date would soon be in the past, and refused). */
function tomorrowAfternoon(now: Date): string {
  const day = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  return `${day}T15:00:00-06:00`;
}

/** The example body: every field with its example value, callback_time tomorrow. */
export function exampleBody(now: Date = new Date()): Record<string, string> {
  return Object.fromEntries(WEBHOOK_FIELDS.map((f) => [f.name, f.name === 'callback_time' ? tomorrowAfternoon(now) : f.example]));
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
          <p className="webhook-docs__lead">
            For live transfers, ask WarmLine which agent takes each qualified prospect, then say how the transfer went: see{' '}
            <a href="#live-transfers">Live transfers</a>. Both use the same vendor key.
          </p>

          <nav aria-label="On this page" className="webhook-docs__toc">
            <a href="#endpoint">Endpoint</a>
            <a href="#authentication">Authentication</a>
            <a href="#fields">Fields</a>
            <a href="#outcomes">Outcomes</a>
            <a href="#repeats">Repeats</a>
            <a href="#rate-limit">Rate limit</a>
            <a href="#answers">Answers</a>
            <a href="#example">Example</a>
            {TRANSFER_DOCS_TOC.map((t) => (
              <a key={t.id} href={`#${t.id}`}>
                {t.label}
              </a>
            ))}
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
            <p>
              Send your own id of each call in the <code>Idempotency-Key</code> header (1 to {IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters), and
              the same key whenever you send that call again. We look at each call, for your key, in this order:
            </p>
            <ol data-testid="repeat-rules">
              <li>
                <strong>An Idempotency-Key you sent before</strong> with the same call: the first answer again, 200 with its callback_id, the message
                &lsquo;{WEBHOOK_REPEAT_MESSAGE}&rsquo; and the header <code>Idempotent-Replayed: true</code>. Nothing new is stored. The same call means the
                same fields as we read them (text trimmed, the phone as its 10 digits, callback_time as an instant, whatever offset it is written with).
              </li>
              <li>
                <strong>An Idempotency-Key you sent before with a different call</strong>: 409 &lsquo;{WEBHOOK_KEY_REUSED_MESSAGE}&rsquo;, naming the key
                and the callback_id it was first used for. Nothing is stored: a key names one call, so send the new call with a key of its own.
              </li>
              <li>
                Otherwise (no key, or a key we have not seen): <strong>the same phone number and the same callback_time</strong> as a call we stored is a
                repeat of that call: 200 with its callback_id and &lsquo;{WEBHOOK_REPEAT_MESSAGE}&rsquo;, whatever else differs. A new key sent with it is
                kept for that call, so rule 1 or 2 answers it from then on.
              </li>
              <li>
                Otherwise, for a call without a callback_time: <strong>the same phone number and the same transcript</strong> as a call received in the last{' '}
                {WEBHOOK_REPEAT_WINDOW_HOURS} hours is a repeat of it, answered the same way.
              </li>
              <li>Anything else is a new call: stored, 200 &lsquo;Callback received&rsquo; with a new callback_id.</li>
            </ol>
          </section>

          <section aria-labelledby="rate-limit">
            <h2 id="rate-limit">Rate limit</h2>
            <p data-testid="rate-limit">
              Each key may send <strong>{WEBHOOK_CALLS_PER_MINUTE.toLocaleString('en-US')} calls a minute</strong>. Every answer says where you stand in
              its <code>RateLimit</code> headers; beyond the limit the answer is 429 with <code>Retry-After</code> (seconds).
            </p>
            <pre className="webhook-docs__code" tabIndex={0}>
              <code>{`RateLimit-Policy: ${WEBHOOK_CALLS_PER_MINUTE};w=60\nRateLimit: limit=${WEBHOOK_CALLS_PER_MINUTE}, remaining=597, reset=42\nRateLimit-Limit: ${WEBHOOK_CALLS_PER_MINUTE}\nRateLimit-Remaining: 597\nRateLimit-Reset: 42`}</code>
            </pre>
          </section>

          <section aria-labelledby="answers">
            <h2 id="answers">Answers</h2>
            {ANSWERS.map((a) => (
              <div key={a.example} className="webhook-docs__answer" data-testid={`answer-${a.example}`}>
                <h3>{a.title}</h3>
                <p>{a.text}</p>
                <pre className="webhook-docs__code" tabIndex={0}>
                  <code>{JSON.stringify(WEBHOOK_ANSWER_EXAMPLES[a.example], null, 2)}</code>
                </pre>
              </div>
            ))}
          </section>

          <section aria-labelledby="example">
            <h2 id="example">Example</h2>
            <CopyBlock text={curl} label="Copy curl command" />
          </section>

          <TransferDocs origin={origin} />
        </article>
      </main>
      <SiteFooter />
    </div>
  );
}

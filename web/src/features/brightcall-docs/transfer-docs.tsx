import { VENDOR_KEY_HEADER, WEBHOOK_CALLS_PER_MINUTE } from '@warmline/contracts/callbacks';
import {
  CALLING_HOURS,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_NOT_FOUND_MESSAGE,
  TRANSFER_OUTCOME_CONFLICT_MESSAGE,
  TRANSFER_REPEAT_PHONE_DAYS,
  TRANSFER_RESERVATION_SECONDS,
  TRANSFER_ROUTE_PATH,
  TRANSFER_STATUS_LABELS,
  transferOutcomePath,
} from '@warmline/contracts/live-transfers';
import {
  EXAMPLE_OUTCOME_BODY,
  EXAMPLE_ROUTE_BODY,
  TRANSFER_OUTCOME_ANSWER_EXAMPLES,
  TRANSFER_OUTCOME_FIELDS,
  TRANSFER_ROUTE_ANSWER_EXAMPLES,
  TRANSFER_ROUTE_FIELDS,
  type TransferDocField,
} from '@warmline/contracts/transfer-docs';
import { CopyBlock } from './copy-block';

/**
 * /brightcalldocs, live transfers (issue 23 §8): the vendor's two calls — where should this
 * prospect go (route), how did the transfer go (outcome) — with their fields, answers, the rules
 * that decide routing and charging, and a curl for each. Fields and answers come from
 * contracts/transfer-docs.ts, which its test holds to the schemas the transfers service validates
 * with; the rules' numbers come from the same contracts.
 */

export const TRANSFER_DOCS_TOC = [
  { id: 'live-transfers', label: 'Live transfers' },
  { id: 'transfer-route', label: 'Route a prospect' },
  { id: 'transfer-outcome', label: 'Report the outcome' },
  { id: 'transfer-routing-rules', label: 'Routing rules' },
  { id: 'transfer-charging', label: 'Charging' },
  { id: 'transfer-examples', label: 'Transfer examples' },
] as const;

const OUTCOME_PATH_TEMPLATE = transferOutcomePath('{transfer_id}');

type RouteExample = keyof typeof TRANSFER_ROUTE_ANSWER_EXAMPLES;
type OutcomeExample = keyof typeof TRANSFER_OUTCOME_ANSWER_EXAMPLES;

const ROUTE_ANSWERS: Array<{ example: RouteExample; title: string; text: string }> = [
  {
    example: 'routed',
    title: '200 OK: routed',
    text: `Transfer the prospect to transfer_phone now: the agent (agent_name) is held for you until expires_at (${TRANSFER_RESERVATION_SECONDS} seconds). Keep transfer_id for the outcome.`,
  },
  { example: 'no_agent_available', title: "200 OK: not routed, 'no_agent_available'", text: 'No agent can take this prospect now (see Routing rules). Do not transfer; you may ask again later with a new call_id.' },
  {
    example: 'outside_calling_hours',
    title: "200 OK: not routed, 'outside_calling_hours'",
    text: `It is not between ${CALLING_HOURS.from} and ${CALLING_HOURS.to} in the prospect's own time zone (${CALLING_HOURS.from}–20:00 in Florida, Oklahoma and Maryland), or the phone had 3 transfers in the last 24 hours in one of those states. Do not transfer.`,
  },
  { example: 'suppressed', title: "200 OK: not routed, 'suppressed'", text: 'The phone is on our do-not-call list. Do not transfer, and do not call it again.' },
  { example: 400, title: '400 Bad Request', text: 'A required field is missing or a field is invalid; fields names each one and errors says what is wrong. Nothing was reserved.' },
  { example: 401, title: '401 Unauthorized', text: 'No key, an unknown key or a revoked key. Ask WarmLine for a new key.' },
  { example: 429, title: '429 Too Many Requests', text: 'Wait the seconds in the Retry-After header, then send the same call (same call_id) again.' },
];

const OUTCOME_ANSWERS: Array<{ example: OutcomeExample; title: string; text: string }> = [
  { example: 'charged', title: `200 OK: '${TRANSFER_STATUS_LABELS.charged}'`, text: `Connected for more than ${TRANSFER_BUFFER_SECONDS} seconds: one transfer charged, at charged_cents.` },
  { example: 'buffer_protected', title: `200 OK: '${TRANSFER_STATUS_LABELS.buffer_protected}'`, text: `Connected for ${TRANSFER_BUFFER_SECONDS} seconds or less: recorded, not charged.` },
  { example: 'not_connected', title: `200 OK: '${TRANSFER_STATUS_LABELS.not_connected}'`, text: 'connected was false: recorded, not charged, and the agent is free for the next prospect.' },
  { example: 400, title: '400 Bad Request', text: 'A field is missing or invalid (an unknown field too); fields names each one. Nothing was recorded.' },
  { example: 401, title: '401 Unauthorized', text: 'No key, an unknown key or a revoked key.' },
  { example: 404, title: `404 Not Found: '${TRANSFER_NOT_FOUND_MESSAGE}'`, text: 'No transfer with this transfer_id was routed for your key.' },
  {
    example: 409,
    title: `409 Conflict: '${TRANSFER_OUTCOME_CONFLICT_MESSAGE}'`,
    text: 'This transfer already has a different outcome; the first one stands. (The same outcome sent again answers 200 with the same result.)',
  },
  { example: 429, title: '429 Too Many Requests', text: 'Wait the seconds in the Retry-After header, then send the same outcome again: it is never counted twice.' },
];

/** A curl for one call: the key to fill in, the example body. */
function curl(url: string, body: unknown): string {
  const json = JSON.stringify(body, null, 2).replace(/'/g, `'\\''`);
  return [`curl -X POST '${url}' \\`, `  -H 'Content-Type: application/json' \\`, `  -H '${VENDOR_KEY_HEADER}: YOUR_VENDOR_KEY' \\`, `  -d '${json}'`].join('\n');
}

export const routeCurlCommand = (origin: string) => curl(`${origin}${TRANSFER_ROUTE_PATH}`, EXAMPLE_ROUTE_BODY);
export const outcomeCurlCommand = (origin: string) => curl(`${origin}${transferOutcomePath('YOUR_TRANSFER_ID')}`, EXAMPLE_OUTCOME_BODY);

export function TransferDocs({ origin }: { origin: string }) {
  return (
    <>
      <section aria-labelledby="live-transfers">
        <h2 id="live-transfers">Live transfers</h2>
        <p>For each qualified prospect who wants to talk to a licensed agent:</p>
        <ol>
          <li>
            <strong>Route:</strong> ask which agent takes the prospect (<code>POST {TRANSFER_ROUTE_PATH}</code>).
          </li>
          <li>
            <strong>Transfer:</strong> when the answer says routed, warm-transfer the call to its transfer_phone before expires_at.
          </li>
          <li>
            <strong>Outcome:</strong> when the call ends (or did not connect), say how it went (<code>POST {OUTCOME_PATH_TEMPLATE}</code>). That is what
            decides whether the agent is charged.
          </li>
        </ol>
        <p data-testid="transfer-auth">
          Both calls take the same vendor key as the webhook, in <code>{VENDOR_KEY_HEADER}</code> or <code>Authorization: Bearer</code>, and count
          against the same {WEBHOOK_CALLS_PER_MINUTE.toLocaleString('en-US')} calls a minute per key (see Rate limit). The body is one JSON object.
        </p>
      </section>

      <section aria-labelledby="transfer-route">
        <h2 id="transfer-route">Route a prospect</h2>
        <p>
          <code className="webhook-docs__method">POST</code> <code data-testid="transfer-route-endpoint">{`${origin}${TRANSFER_ROUTE_PATH}`}</code>
        </p>
        <p>Unknown fields are ignored. Text is trimmed.</p>
        <FieldsTable id="transfer-route-fields" caption="Route body fields" fields={TRANSFER_ROUTE_FIELDS} testId="transfer-route-field" />
        <h3>Answers</h3>
        {ROUTE_ANSWERS.map((a) => (
          <Answer key={a.example} testId={`transfer-route-answer-${a.example}`} title={a.title} text={a.text} example={TRANSFER_ROUTE_ANSWER_EXAMPLES[a.example]} />
        ))}
      </section>

      <section aria-labelledby="transfer-outcome">
        <h2 id="transfer-outcome">Report the outcome</h2>
        <p>
          <code className="webhook-docs__method">POST</code>{' '}
          <code data-testid="transfer-outcome-endpoint">{`${origin}${OUTCOME_PATH_TEMPLATE}`}</code>
        </p>
        <p>transfer_id is the one the route answer gave. Unknown fields are refused (400), so a misspelt field is never lost silently.</p>
        <FieldsTable id="transfer-outcome-fields" caption="Outcome body fields" fields={TRANSFER_OUTCOME_FIELDS} testId="transfer-outcome-field" />
        <h3>Answers</h3>
        {OUTCOME_ANSWERS.map((a) => (
          <Answer key={a.example} testId={`transfer-outcome-answer-${a.example}`} title={a.title} text={a.text} example={TRANSFER_OUTCOME_ANSWER_EXAMPLES[a.example]} />
        ))}
      </section>

      <section aria-labelledby="transfer-routing-rules">
        <h2 id="transfer-routing-rules">Routing rules</h2>
        <p>The prospect is not routed at all when:</p>
        <ul data-testid="transfer-refusal-rules">
          <li>
            <strong>suppressed</strong>: the phone is on our do-not-call list (a webhook call with call_outcome &lsquo;dnc&rsquo; puts it there).
          </li>
          <li>
            <strong>outside_calling_hours</strong>: it is not between 8 am and 9 pm ({CALLING_HOURS.from}–{CALLING_HOURS.to}) in the prospect&rsquo;s own
            local time. The time zone comes from the state, and from the area code in states with two zones. Florida, Oklahoma and Maryland end
            at 8 pm, and there a phone that had 3 transfers in the last 24 hours is refused too (their laws allow 3 calls a day).
          </li>
        </ul>
        <p>Otherwise an agent can take the prospect when all of these hold:</p>
        <ol data-testid="transfer-eligibility-rules">
          <li>
            <strong>Balance:</strong> the agent has prepaid transfers left beyond the ones already routed to them and not yet reported.
          </li>
          <li>
            <strong>States:</strong> the agent works the prospect&rsquo;s state (state, or the phone&rsquo;s area code when absent).
          </li>
          <li>
            <strong>Hours:</strong> now is inside the agent&rsquo;s weekly hours, in the agent&rsquo;s own time zone.
          </li>
          <li>
            <strong>Daily cap:</strong> the agent&rsquo;s transfers today (their day, in their zone) are under their cap.
          </li>
          <li>
            <strong>Not paused:</strong> an agent who pauses gets nothing from the next decision on.
          </li>
          <li>
            <strong>At once:</strong> the agent is on fewer transfers than they take at once (one, unless they chose more).
          </li>
          <li>
            <strong>No repeat:</strong> the agent has not received this phone number in the last {TRANSFER_REPEAT_PHONE_DAYS} days.
          </li>
        </ol>
        <p data-testid="transfer-rotation-rule">
          Among the agents who can, the one who has waited longest since their last transfer gets it (<strong>fair rotation</strong>). When none can,
          the answer is &lsquo;no_agent_available&rsquo;.
        </p>
        <ul data-testid="transfer-reservation-rules">
          <li>
            <strong>Reservation:</strong> a routed answer holds the agent for you until expires_at, {TRANSFER_RESERVATION_SECONDS} seconds later. Without
            an outcome by then, the agent is free for the next prospect.
          </li>
          <li>
            <strong>Repeats:</strong> the same call_id sent again with your key answers the same decision (the same transfer_id, or the same reason),
            and reserves nothing more. Use a new call_id for each prospect.
          </li>
        </ul>
      </section>

      <section aria-labelledby="transfer-charging">
        <h2 id="transfer-charging">Charging: the {TRANSFER_BUFFER_SECONDS}-second buffer</h2>
        <ul data-testid="transfer-charging-rules">
          <li>
            <strong>Not connected</strong> (connected false): never charged.
          </li>
          <li>
            <strong>Connected for {TRANSFER_BUFFER_SECONDS} seconds or less</strong>: buffer-protected, never charged. This is the agents&rsquo;{' '}
            {TRANSFER_BUFFER_SECONDS}-Second Buffer Protection.
          </li>
          <li>
            <strong>Connected for more than {TRANSFER_BUFFER_SECONDS} seconds</strong>: one transfer is charged from the agent&rsquo;s prepaid
            transfers, at the price of the purchase it comes from (the oldest first); charged_cents says how much.
          </li>
          <li>
            <strong>No transfers left</strong> when the call ends: recorded as &lsquo;{TRANSFER_STATUS_LABELS.unbilled}&rsquo;, never a negative balance.
          </li>
          <li>
            <strong>Repeats:</strong> the same outcome sent again answers the same result and charges nothing more; a different outcome for a transfer
            that already has one is refused with 409.
          </li>
        </ul>
      </section>

      <section aria-labelledby="transfer-examples">
        <h2 id="transfer-examples">Transfer examples</h2>
        <h3>Route a prospect with curl</h3>
        <CopyBlock text={routeCurlCommand(origin)} label="Copy route curl command" testId="transfer-route-curl" />
        <h3>Report its outcome with curl</h3>
        <CopyBlock text={outcomeCurlCommand(origin)} label="Copy outcome curl command" testId="transfer-outcome-curl" />
      </section>
    </>
  );
}

function FieldsTable<Name extends string>({ id, caption, fields, testId }: { id: string; caption: string; fields: ReadonlyArray<TransferDocField<Name>>; testId: string }) {
  return (
    // Wider than a phone: it scrolls, so the keyboard must reach it too.
    <div className="webhook-docs__table-wrap" role="region" aria-label={caption} id={id} tabIndex={0}>
      <table className="webhook-docs__table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Limit</th>
            <th scope="col">Description</th>
            <th scope="col">Example</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.name} data-testid={testId}>
              <th scope="row">
                <code>{f.name}</code>
              </th>
              <td>{f.type}</td>
              <td>{f.required ? 'Yes' : 'No'}</td>
              <td>{f.limit}</td>
              <td>{f.description}</td>
              <td>
                <code>{f.example}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Answer({ testId, title, text, example }: { testId: string; title: string; text: string; example: unknown }) {
  return (
    <div className="webhook-docs__answer" data-testid={testId}>
      <h4>{title}</h4>
      <p>{text}</p>
      <pre className="webhook-docs__code" tabIndex={0}>
        <code>{JSON.stringify(example, null, 2)}</code>
      </pre>
    </div>
  );
}

/**
 * `npm run simulate:vendor -- --calls N [--url http://127.0.0.1:3000] [--key wlv_…] [--parallel P]`
 * (issue 23 §9): the voice-AI vendor, as it would call WarmLine. For each of N qualified
 * prospects (made-up names, a phone with a real area code of the prospect's state) it asks
 * POST /api/transfers/route where to send them, and for each one routed it reports the outcome
 * to POST /api/transfers/{transfer_id}/outcome with a duration around the 120-second buffer:
 * some not connected, some connected for 120 s or less (buffer-protected), most longer (charged).
 * Then it prints what happened: routed, refused by reason, charged, buffer-protected, not connected.
 *
 * The key: --key, else DEMO_VENDOR_KEY from the environment or var/local.env (make env writes it,
 * make seed registers it). Most prospects are in the demo agent's states, so after `make start`
 * the demo agent's My Transfers fills up; the rest show the refusals.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  formatUsd,
  stateOfAreaCode,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_ROUTE_PATH,
  TRANSFER_STATUS_LABELS,
  transferOutcomePath,
  US_STATE_CODES,
  VENDOR_KEY_HEADER,
  VENDOR_KEY_PREFIX,
  type TransferOutcomeAnswer,
  type TransferOutcomeInput,
  type TransferRouteAnswer,
  type TransferRouteInput,
  type TransferStatus,
  type UsStateCode,
} from '@warmline/contracts';
import { DEMO_AGENT_STATES } from '@warmline/transfers/demo-transfers';
import { REPO_ROOT } from './services';

const refuse = (line: string): never => {
  process.stderr.write(`simulate:vendor: ${line}\n`);
  process.exit(2);
};

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20' },
    url: { type: 'string', default: `http://127.0.0.1:${process.env.GATEWAY_PORT || 3000}` },
    key: { type: 'string' },
    parallel: { type: 'string', default: '1' },
    quiet: { type: 'boolean', default: false },
  },
  allowPositionals: false,
});

function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) refuse(`--${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
  return n;
}
const calls = wholeNumber('calls', values.calls, 1, 100_000);
const parallel = wholeNumber('parallel', values.parallel, 1, 50);
const baseUrl: URL = URL.canParse(values.url) ? new URL(values.url) : refuse(`--url must be the gateway's address, e.g. http://127.0.0.1:3000 (got '${values.url}')`);
const key = vendorKey();

/** --key, else DEMO_VENDOR_KEY from the shell, else from var/local.env (what make env wrote and make seed registered). */
function vendorKey(): string {
  const given = values.key ?? process.env.DEMO_VENDOR_KEY ?? fromEnvFile('DEMO_VENDOR_KEY');
  if (!given) {
    return refuse(
      'no vendor key. `make seed` (part of `make start`) registers the demo key DEMO_VENDOR_KEY that `make env` writes to var/local.env; ' +
        'or create one as an admin (Admin → Vendor keys, or POST /api/admin/vendor-keys) and pass it with --key wlv_…',
    );
  }
  if (!given.startsWith(VENDOR_KEY_PREFIX)) refuse(`a vendor key starts with ${VENDOR_KEY_PREFIX} (got '${given.slice(0, 8)}…')`);
  return given;
}

function fromEnvFile(name: string): string | undefined {
  const file = process.env.WARMLINE_ENV_FILE ?? path.join(REPO_ROOT, 'var/local.env');
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).trim() || undefined;
}

/* ------------------------------------------------------------------ prospects ---------- */

const FIRST_NAMES = ['Maria', 'James', 'Linda', 'Robert', 'Aisha', 'Carlos', 'Patricia', 'Wei', 'Jennifer', 'Tyrone', 'Priya', 'Michael', 'Ana', 'David', 'Betty', 'Luis'];
const LAST_NAMES = ['Lopez', 'Smith', 'Johnson', 'Nguyen', 'Garcia', 'Brown', 'Patel', 'Williams', 'Martinez', 'Washington', 'Kowalski', 'Rivera', 'Lee', 'Davis'];
const LEAD_TYPES = ['Final Expense', 'Medicare Supplement', 'Term Life', 'Auto', 'Home'];
const DISPOSITIONS = ['quoted', 'sold', 'follow_up', 'not_interested'];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const between = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** Every geographic area code of each state (contracts' table, read through stateOfAreaCode). */
const AREA_CODES = new Map<UsStateCode, string[]>();
for (let code = 200; code <= 999; code += 1) {
  const state = stateOfAreaCode(`${code}2000000`);
  if (state) AREA_CODES.set(state, [...(AREA_CODES.get(state) ?? []), String(code)]);
}

/** Most prospects in the demo agent's states (routed), the rest anywhere (some find no agent). */
function prospectState(): UsStateCode {
  if (Math.random() < 0.75) return pick(DEMO_AGENT_STATES);
  return pick(US_STATE_CODES.filter((s) => AREA_CODES.has(s)));
}

function prospect(n: number, runTag: string): TransferRouteInput {
  const state = prospectState();
  const phone = `${pick(AREA_CODES.get(state)!)}${between(200, 999)}${String(between(0, 9999)).padStart(4, '0')}`;
  return {
    call_id: `sim-${runTag}-${n}`,
    first_name: pick(FIRST_NAMES),
    last_name: pick(LAST_NAMES),
    phone_number: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
    // Now and then left out: the service takes the state from the area code.
    ...(Math.random() < 0.8 ? { state } : {}),
    lead_type: pick(LEAD_TYPES),
  };
}

/** What the vendor reports: 15% not connected, the rest around the buffer (30–300 s, a few on its edge). */
function outcome(routedAt: Date): TransferOutcomeInput {
  if (Math.random() < 0.15) return { connected: false, duration_seconds: 0, disposition: 'no_answer' };
  const r = Math.random();
  const duration =
    r < 0.1 ? pick([TRANSFER_BUFFER_SECONDS - 1, TRANSFER_BUFFER_SECONDS, TRANSFER_BUFFER_SECONDS + 1]) : r < 0.4 ? between(20, TRANSFER_BUFFER_SECONDS) : between(TRANSFER_BUFFER_SECONDS + 1, 600);
  const answeredAt = new Date(routedAt.getTime() + between(3, 20) * 1000);
  return {
    connected: true,
    duration_seconds: duration,
    answered_at: answeredAt.toISOString(),
    ended_at: new Date(answeredAt.getTime() + duration * 1000).toISOString(),
    recording_url: `https://recordings.example.com/sim/${answeredAt.getTime().toString(36)}.mp3`,
    transcript: `Voice AI: I'm connecting you with a licensed agent now. Prospect: Thank you. (${duration} s with the agent)`,
    disposition: pick(DISPOSITIONS),
  };
}

/* ------------------------------------------------------------------ calls ---------- */

interface Answer<T> {
  status: number;
  body: T | { success: false; message?: string } | null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One call with the key. 429: wait its Retry-After and send the same call again; no answer or a
 * 5xx: once more after a second (the same call_id answers the same decision, the same outcome
 * the same result: a retry never counts twice).
 */
async function post<T>(pathname: string, body: unknown): Promise<Answer<T>> {
  let retriedFailure = false;
  for (;;) {
    let status = 0;
    let parsed: unknown = null;
    let retryAfter = 1;
    try {
      const response = await fetch(new URL(pathname, baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', [VENDOR_KEY_HEADER]: key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      status = response.status;
      retryAfter = Number(response.headers.get('retry-after')) || 1;
      const text = await response.text();
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = { success: false, message: text.slice(0, 200) };
      }
    } catch (err) {
      parsed = { success: false, message: err instanceof Error ? err.message : String(err) };
    }
    if (status === 429) {
      counts.throttled += 1;
      await sleep(retryAfter * 1000);
      continue;
    }
    if ((status === 0 || status >= 500) && !retriedFailure) {
      retriedFailure = true;
      await sleep(1000);
      continue;
    }
    return { status, body: parsed as Answer<T>['body'] };
  }
}

/* ------------------------------------------------------------------ the run ---------- */

const counts = {
  routed: 0,
  refused: new Map<string, number>(),
  outcomes: new Map<TransferStatus, number>(),
  chargedCents: 0,
  throttled: 0,
  errors: new Map<string, number>(),
};
const add = <K>(map: Map<K, number>, k: K) => map.set(k, (map.get(k) ?? 0) + 1);
const say = (line: string) => {
  if (!values.quiet) process.stdout.write(`${line}\n`);
};

function failure(what: string, answer: Answer<unknown>): void {
  const message = answer.body && typeof answer.body === 'object' && 'message' in answer.body ? String(answer.body.message) : '';
  add(counts.errors, `${what} ${answer.status || 'no answer'}${message ? ` (${message})` : ''}`);
  if (answer.status === 401) {
    refuse(`${baseUrl.origin} refused the key (401). Run \`make seed\` to register DEMO_VENDOR_KEY, or pass a live key with --key.`);
  }
}

async function oneProspect(n: number, runTag: string): Promise<void> {
  const body = prospect(n, runTag);
  const who = `#${n} ${body.first_name} ${body.last_name} ${body.phone_number}${body.state ? ` ${body.state}` : ''}`;
  const routed = await post<TransferRouteAnswer>(TRANSFER_ROUTE_PATH, body);
  const decision = routed.body as TransferRouteAnswer | null;
  if (routed.status !== 200 || !decision?.success) {
    say(`${who}: route answered ${routed.status || 'nothing'}`);
    return failure('route', routed);
  }
  if (!decision.routed) {
    add(counts.refused, decision.reason);
    say(`${who}: not routed (${decision.reason})`);
    return;
  }
  counts.routed += 1;
  const report = outcome(new Date());
  const settled = await post<TransferOutcomeAnswer>(transferOutcomePath(decision.transfer_id), report);
  const result = settled.body as TransferOutcomeAnswer | null;
  if (settled.status !== 200 || !result?.success) {
    say(`${who}: routed to ${decision.agent_name}; outcome answered ${settled.status || 'nothing'}`);
    return failure('outcome', settled);
  }
  add(counts.outcomes, result.status);
  if (result.charged) counts.chargedCents += result.charged_cents;
  const label = result.charged ? `Charged ${formatUsd(result.charged_cents)}` : TRANSFER_STATUS_LABELS[result.status];
  say(`${who}: routed to ${decision.agent_name} → ${report.connected ? `${report.duration_seconds} s` : 'not connected'}: ${label}`);
}

const runTag = Date.now().toString(36);
say(`simulate:vendor: ${calls} prospects through ${baseUrl.origin} with key ${key.slice(0, VENDOR_KEY_PREFIX.length + 4)}…, ${parallel} at a time`);
let next = 1;
await Promise.all(
  Array.from({ length: Math.min(parallel, calls) }, async () => {
    while (next <= calls) {
      const n = next;
      next += 1;
      await oneProspect(n, runTag);
    }
  }),
);

const refusedTotal = [...counts.refused.values()].reduce((a, b) => a + b, 0);
const of = (s: TransferStatus) => counts.outcomes.get(s) ?? 0;
const lines = [
  '',
  `Prospects:         ${calls}`,
  `Routed:            ${counts.routed}`,
  `Refused:           ${refusedTotal}${refusedTotal ? ` (${[...counts.refused].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}`,
  `Charged:           ${of('charged')} (${formatUsd(counts.chargedCents)})`,
  `Buffer-protected:  ${of('buffer_protected')} (connected ${TRANSFER_BUFFER_SECONDS} s or less, not charged)`,
  `Not connected:     ${of('not_connected')}`,
  ...(of('unbilled') ? [`Unbilled:          ${of('unbilled')} (the agent had no transfers left)`] : []),
  ...(counts.throttled ? [`Throttled (429):   ${counts.throttled}, each sent again after Retry-After`] : []),
  ...(counts.errors.size ? [`Errors:            ${[...counts.errors].map(([e, n]) => `${e} × ${n}`).join('; ')}`] : []),
];
process.stdout.write(`${lines.join('\n')}\n`);
if ((counts.refused.get('outside_calling_hours') ?? 0) === calls) {
  process.stdout.write('Every prospect was outside 8 am–9 pm in their own time zone: run it again in the daytime (US).\n');
} else if (counts.routed === 0 && (counts.refused.get('no_agent_available') ?? 0) > 0) {
  process.stdout.write("No agent could take them: is it inside the demo agent's hours (08:00–20:00 Central), under their daily cap, and do they have transfers left?\n");
}
if (counts.errors.size) process.exitCode = 1;

import { randomUUID } from 'node:crypto';
import {
  quotePackage,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_ROUTE_PATH,
  transferOutcomePath,
  type TransferOutcomeAnswer,
  type TransferOutcomeInput,
  type TransferRouteAnswer,
  type TransferStatus,
} from '@warmline/contracts';
import { sleep } from './system';
import { callablePlaces } from './transfers';

/**
 * The steady mixed load: a few virtual users, each doing one thing at a time through the
 * gateway as a browser would (JSON bodies with X-Requested-With for CSRF, the session cookie):
 * survey sign-ups, logins, aged-lead purchases and package payments with the sandbox card —
 * and the voice-AI vendor posting call outcomes to its webhook with its key (issue 15), and
 * routing live transfers and reporting their outcomes (issue 23).
 * Every request is recorded with its start time, latency and status (0 = no answer).
 */

export type Action =
  | 'sign-up'
  | 'login'
  | 'market'
  | 'lead purchase'
  | 'lead payment'
  | 'package intent'
  | 'package payment'
  | 'vendor call'
  | 'transfer route'
  | 'transfer outcome';

export interface Sample {
  at: number;
  ms: number;
  action: Action;
  status: number;
  vu: number;
}

export interface SessionLoss {
  at: number;
  vu: number;
}

export interface LoadOptions {
  baseUrl: string;
  users: number;
  /** Pause between one user's steps, so the load stays bounded on a small machine. */
  paceMs: number;
  runId: string;
  /** An account that exists from the seed, so purchases can start before any sign-up. */
  demoAgent?: { username: string; password: string };
  /** The vendor's key for POST /api/callbacks/brightcall; without one the load posts no calls. */
  vendorKey?: string;
  /** The vendor's key for the live-transfer calls (the seed's, in both ingestion and the transfers mirror); without one, none. */
  transferKey?: string;
}

/** A transfer the vendor was told was routed, and the outcome answer it got (none when it got no 200). */
export interface ClientTransfer {
  transferId: string;
  callId: string;
  outcome?: { status: TransferStatus; charged: boolean; chargedCents: number };
}

/** What a purchase left behind, for the effect checks (the database is the truth; this is the client's view). */
export interface ClientOrder {
  orderId: string;
  kind: 'lead' | 'package';
  paid: boolean;
}

const REQUEST_TIMEOUT_MS = 15_000;
const TEST_CARD = '4242 4242 4242 4242';

/** The e-mail domain of everything this load creates; the checks find sign-ups by it. */
export const LOAD_EMAIL_DOMAIN = 'chaos.example.com';

class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly load: Load,
    private readonly vu: number,
  ) {}

  get hasSession(): boolean {
    return this.cookies.size > 0;
  }

  async request(
    action: Action,
    method: 'GET' | 'POST',
    pathname: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['x-requested-with'] = 'XMLHttpRequest';
    }
    const started = Date.now();
    const t0 = performance.now();
    let status = 0;
    let json: Record<string, unknown> = {};
    try {
      const response = await fetch(`${this.load.options.baseUrl}${pathname}`, {
        method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      status = response.status;
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const eq = pair?.indexOf('=') ?? -1;
        if (pair && eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      const text = await response.text();
      try {
        const parsed: unknown = text ? JSON.parse(text) : {};
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        // an HTML error page from a proxy, say: the status is what counts
      }
    } catch {
      status = 0; // refused, reset or timed out: no answer
    }
    this.load.samples.push({ at: started, ms: performance.now() - t0, action, status, vu: this.vu });
    return { status, json };
  }
}

interface Account {
  username: string;
  password: string;
}

interface VirtualUser {
  id: number;
  session?: Browser;
  account?: Account;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** Share of each step in the mix (sign-ups, logins, lead purchases, package payments, vendor calls). */
const MIX: Array<[Step, number]> = [
  ['signUp', 2],
  ['logIn', 2],
  ['buyLeads', 3],
  ['payPackage', 3],
  ['vendorCall', 2],
  ['vendorTransfer', 3],
];
type Step = 'signUp' | 'logIn' | 'buyLeads' | 'payPackage' | 'vendorCall' | 'vendorTransfer';

function pickStep(): Step {
  const total = MIX.reduce((n, [, w]) => n + w, 0);
  let r = Math.random() * total;
  for (const [step, weight] of MIX) {
    r -= weight;
    if (r < 0) return step;
  }
  return 'payPackage';
}

export class Load {
  readonly samples: Sample[] = [];
  readonly sessionLosses: SessionLoss[] = [];
  readonly orders: ClientOrder[] = [];
  /** The callback_id of every vendor call the webhook answered 200: each must be stored. */
  readonly acceptedCalls: string[] = [];
  /** Calls whose repeat (same Idempotency-Key) was answered with another callback_id than the first. */
  readonly repeatMismatches: string[] = [];
  /** Every transfer answered routed, with its outcome's answer: each must be stored, each outcome with its status. */
  readonly transfers: ClientTransfer[] = [];
  /** Routes and outcomes whose repeat (same call_id, same outcome) was answered differently from the first. */
  readonly transferRepeatMismatches: string[] = [];
  /** Route answers by reason ('routed' or the refusal's), for the report. */
  readonly routeAnswers = new Map<string, number>();
  private readonly accounts: Account[] = [];
  private stopped = false;
  private running: Array<Promise<void>> = [];
  private sequence = 0;

  constructor(readonly options: LoadOptions) {
    if (options.demoAgent) this.accounts.push(options.demoAgent);
  }

  start(): void {
    this.running = Array.from({ length: this.options.users }, (_, i) => this.runUser({ id: i + 1 }));
  }

  /** Stops starting new steps and waits for the ones under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private nextTag(): string {
    this.sequence += 1;
    return `${this.options.runId}${this.sequence.toString(36)}`;
  }

  private async runUser(vu: VirtualUser): Promise<void> {
    // Staggered starts, so the users do not move in lockstep.
    await sleep(Math.random() * this.options.paceMs);
    while (!this.stopped) {
      try {
        await this.step(vu, pickStep());
      } catch (err) {
        // A bug in the load itself must not pass for a fault of the system.
        process.stderr.write(`chaos: virtual user ${vu.id} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
        throw err;
      }
      await sleep(this.options.paceMs * (0.5 + Math.random()));
    }
  }

  private async step(vu: VirtualUser, step: Step): Promise<void> {
    switch (step) {
      case 'signUp':
        return this.signUp(vu);
      case 'logIn':
        return this.logIn(vu);
      case 'buyLeads':
        return vu.session ? this.buyLeads(vu, vu.session) : this.logIn(vu);
      case 'payPackage':
        return this.payPackage(vu);
      case 'vendorCall':
        return this.options.vendorKey ? this.vendorCall(vu, this.options.vendorKey) : this.payPackage(vu);
      case 'vendorTransfer':
        return this.options.transferKey ? this.vendorTransfer(vu, this.options.transferKey) : this.payPackage(vu);
    }
  }

  /** POST /api/survey: a new account with its answers (and the e-mails that go with it). */
  private async signUp(vu: VirtualUser): Promise<void> {
    const tag = this.nextTag();
    const account = { username: `chaos_${tag}`, password: `pw-${tag}-secret` };
    // Each prospect signs up from an address of its own (RFC 2544's benchmarking range), as real
    // ones do: the gateway allows 5 sign-ups an hour per address, and trusts X-Forwarded-For from
    // loopback (TRUST_PROXY's default), where this load comes from.
    const clientIp = `198.18.${(this.sequence >> 8) & 255}.${this.sequence & 255}`;
    const answer = await new Browser(this, vu.id).request('sign-up', 'POST', '/api/survey', {
      firstName: 'Chaos',
      lastName: `Tester ${tag}`,
      agencyName: `Chaos Agency ${tag}`,
      role: 'Insurance Agent',
      phone: '(555) 010-2000',
      email: `signup.${tag}@${LOAD_EMAIL_DOMAIN}`,
      username: account.username,
      password: account.password,
      leadType: 'Aged Leads',
      workingStates: 'TX, FL',
      ageRange: '30-60',
    }, { 'x-forwarded-for': clientIp });
    if (answer.status === 201) this.accounts.push(account);
  }

  /** POST /api/login with a known account; the session becomes this user's. */
  private async logIn(vu: VirtualUser): Promise<void> {
    if (this.accounts.length === 0) return this.signUp(vu);
    const account = vu.account && Math.random() < 0.5 ? vu.account : pick(this.accounts);
    const browser = new Browser(this, vu.id);
    const answer = await browser.request('login', 'POST', '/api/login', account);
    if (answer.status === 200) {
      vu.session = browser;
      vu.account = account;
    }
  }

  /** A session that worked answers 401: it ended (Redis lost it). Counted, then logged in again. */
  private lostSession(vu: VirtualUser): void {
    this.sessionLosses.push({ at: Date.now(), vu: vu.id });
    delete vu.session;
  }

  /** The market, then 1–3 of its leads reserved and paid with the sandbox card. */
  private async buyLeads(vu: VirtualUser, session: Browser): Promise<void> {
    const page = 1 + Math.floor(Math.random() * 10);
    const market = await session.request('market', 'GET', `/api/aged-leads?page=${page}`);
    if (market.status === 401) return this.lostSession(vu);
    if (market.status !== 200) return;
    const leads = Array.isArray(market.json.leads) ? (market.json.leads as Array<{ id?: unknown }>) : [];
    const ids = leads.map((l) => l.id).filter((id): id is string => typeof id === 'string');
    if (ids.length === 0) return;
    const wanted = new Set(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(ids)));
    const reserved = await session.request('lead purchase', 'POST', '/api/bulk-purchase-leads', { leadIds: [...wanted] });
    if (reserved.status === 401) return this.lostSession(vu);
    if (reserved.status !== 201) return; // 409: another user was quicker; a normal answer
    const orderId = String(reserved.json.orderId);
    const order: ClientOrder = { orderId, kind: 'lead', paid: false };
    this.orders.push(order);
    order.paid = await this.pay(session, 'lead payment', String(reserved.json.clientSecret), this.nextTag());
  }

  /** A premium package, anonymous or logged in, paid with the sandbox card. */
  private async payPackage(vu: VirtualUser): Promise<void> {
    const browser = vu.session && Math.random() < 0.5 ? vu.session : new Browser(this, vu.id);
    const callCount = 1 + Math.floor(Math.random() * 20);
    const quote = quotePackage({ tier: 'premium', count: callCount });
    const tag = this.nextTag();
    const body = { amount: quote.amountCents / 100, callCount, tier: 'premium', idempotencyKey: randomUUID() };
    // A buyer whose checkout failed tries once more; the idempotency key makes it the same order.
    let intent = await browser.request('package intent', 'POST', '/api/create-payment-intent', body);
    if (intent.status >= 500 || intent.status === 0) {
      await sleep(1000);
      intent = await browser.request('package intent', 'POST', '/api/create-payment-intent', body);
    }
    if (intent.status !== 201 && intent.status !== 200) return;
    const order: ClientOrder = { orderId: String(intent.json.orderId), kind: 'package', paid: false };
    this.orders.push(order);
    order.paid = await this.pay(browser, 'package payment', String(intent.json.clientSecret), tag);
  }

  /**
   * The vendor posts one call's outcome (mostly call-backs, some do-not-call) with an
   * Idempotency-Key; no answer or a 5xx is retried once with the same key, as the vendor's
   * docs tell it to, and must then name the same call.
   */
  private async vendorCall(vu: VirtualUser, key: string): Promise<void> {
    const tag = this.nextTag();
    const vendor = new Browser(this, vu.id);
    const body = {
      first_name: 'Chaos',
      last_name: `Prospect ${tag}`,
      phone_number: `512${String(2_000_000 + (this.sequence % 7_000_000)).padStart(7, '0')}`,
      transcript: `Prospect ${tag}: please call me back tomorrow after 3 pm.`,
      call_outcome: Math.random() < 0.9 ? 'callback_requested' : 'do_not_call',
      state: 'TX',
    };
    const headers = { 'x-api-key': key, 'idempotency-key': `chaos-${tag}` };
    let answer = await vendor.request('vendor call', 'POST', '/api/callbacks/brightcall', body, headers);
    const first = answer.status === 200 ? String(answer.json.callback_id) : undefined;
    if (answer.status >= 500 || answer.status === 0) {
      await sleep(1000);
      answer = await vendor.request('vendor call', 'POST', '/api/callbacks/brightcall', body, headers);
    }
    if (answer.status !== 200) return;
    const callbackId = String(answer.json.callback_id);
    if (first !== undefined && first !== callbackId) this.repeatMismatches.push(callbackId);
    this.acceptedCalls.push(callbackId);
  }

  /**
   * The vendor routes one prospect (in a zone where it is now inside calling hours, when there is
   * one) and reports the outcome around the 120-second buffer. No answer or a 5xx is sent again
   * with the same call_id (or the same outcome), as the docs tell the vendor; one outcome in ten
   * is sent twice on purpose. A repeat must answer what the first answer said.
   */
  private async vendorTransfer(vu: VirtualUser, key: string): Promise<void> {
    const tag = this.nextTag();
    const vendor = new Browser(this, vu.id);
    const headers = { 'x-api-key': key };
    // At night in every US zone there is none: the prospect is in Texas, and is refused for the hour.
    const places = callablePlaces(new Date());
    const place = places.length > 0 ? pick(places) : { state: 'TX', areaCode: '512' };
    const body = {
      call_id: `chaos-transfer-${tag}`,
      first_name: 'Chaos',
      last_name: `Prospect ${tag}`,
      phone_number: `${place.areaCode}${String(2_000_000 + ((this.sequence * 7919) % 7_000_000)).padStart(7, '0')}`,
      state: place.state,
      lead_type: 'Final Expense',
    };
    const route = () => vendor.request('transfer route', 'POST', TRANSFER_ROUTE_PATH, body, headers);
    let answer = await route();
    const first = answer.status === 200 ? JSON.stringify(answer.json) : undefined;
    if (answer.status >= 500 || answer.status === 0) {
      await sleep(1000);
      answer = await route();
    }
    if (answer.status !== 200) return;
    if (first !== undefined && first !== JSON.stringify(answer.json)) this.transferRepeatMismatches.push(`route ${body.call_id}`);
    const decision = answer.json as unknown as TransferRouteAnswer;
    const reason = decision.routed ? 'routed' : String(decision.reason);
    this.routeAnswers.set(reason, (this.routeAnswers.get(reason) ?? 0) + 1);
    if (!decision.routed) return;
    const transfer: ClientTransfer = { transferId: decision.transfer_id, callId: body.call_id };
    this.transfers.push(transfer);

    const roll = Math.random();
    const seconds = roll < 0.15 ? 0 : roll < 0.25 ? pick([TRANSFER_BUFFER_SECONDS - 1, TRANSFER_BUFFER_SECONDS, TRANSFER_BUFFER_SECONDS + 1]) : roll < 0.55 ? 30 + Math.floor(Math.random() * 90) : 121 + Math.floor(Math.random() * 400);
    const outcome: TransferOutcomeInput = seconds === 0 ? { connected: false, duration_seconds: 0 } : { connected: true, duration_seconds: seconds, disposition: 'quoted' };
    const report = () => vendor.request('transfer outcome', 'POST', transferOutcomePath(decision.transfer_id), outcome, headers);
    let settled = await report();
    if (settled.status >= 500 || settled.status === 0) {
      await sleep(1000);
      settled = await report();
    } else if (settled.status === 200 && Math.random() < 0.1) {
      const again = await report();
      if (again.status === 200 && JSON.stringify(again.json) !== JSON.stringify(settled.json)) this.transferRepeatMismatches.push(`outcome ${decision.transfer_id}`);
    }
    if (settled.status !== 200) return;
    const result = settled.json as unknown as TransferOutcomeAnswer;
    transfer.outcome = { status: result.status, charged: result.charged, chargedCents: result.charged_cents };
  }

  /**
   * The sandbox card form: 4242 succeeds. A confirmation that got no answer or a 5xx is sent
   * once more, as a buyer would press Pay again; the payment must still be taken once.
   */
  private async pay(browser: Browser, action: Action, clientSecret: string, tag: string): Promise<boolean> {
    const card = {
      clientSecret,
      cardNumber: TEST_CARD,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
      // A billing address of its own per order: the receipt is found by it.
      billing: { name: 'Chaos Buyer', email: `billing.${tag}@${LOAD_EMAIL_DOMAIN}` },
    };
    let answer = await browser.request(action, 'POST', '/api/payments/sandbox/confirm', card);
    if (answer.status >= 500 || answer.status === 0) {
      await sleep(1000);
      answer = await browser.request(action, 'POST', '/api/payments/sandbox/confirm', card);
    }
    return answer.status === 200;
  }
}

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidencePackSchema, type EvidencePack } from '@warmline/contracts';
import type { Identity } from '@warmline/platform';
import { download, pdfTextRuns, unzipFiles, type Download } from '@warmline/platform/testing/documents';
import { prospect, startTransfersFixture, type TransfersFixture } from './transfers-fixture';

/**
 * A transfer's consent evidence pack (issue 24 §4): what WarmLine holds of a live transfer —
 * the vendor's routing request and outcome (call time, duration, transcript, recording link),
 * the suppression check at routing, the charge and its order — for its agent and for an admin.
 */

let f: TransfersFixture;
let key: { id: string; key: string };
let agent: Identity;
let other: Identity;
const admin: Identity = { userId: randomUUID(), username: 'admin', isAdmin: true };
let transferId = '';
let phone = '';
let orderId = '';
const TRANSCRIPT = Array.from({ length: 120 }, (_, i) => `Agent: question ${i + 1}? Prospect: yes, I agreed to be transferred to a licensed agent.`).join('\n');

beforeAll(async () => {
  f = await startTransfersFixture();
  key = await f.vendorKey('BrightCall');
  const agentId = await f.agent({ displayName: 'Avery Agent', states: ['VT'], atOnce: 5 });
  await f.credit(agentId, 3);
  agent = { userId: agentId, username: 'avery', isAdmin: false };
  other = { userId: await f.agent({ states: [] }), username: 'other', isAdmin: false };
  const { rows } = await f.pool.query<{ order_id: string }>('SELECT order_id FROM credit_lots WHERE agent_id = $1', [agentId]);
  orderId = rows[0]!.order_id;
  phone = `802${String(Math.floor(2000000 + Math.random() * 7000000))}`;
  const routed = await f.route(key.key, prospect({ state: 'VT', phone_number: phone, first_name: 'Nora', last_name: 'Quinn', lead_type: 'Final Expense' }));
  expect(routed.body).toMatchObject({ success: true, routed: true });
  transferId = String(routed.body.transfer_id);
  const outcome = await f.outcome(key.key, transferId, {
    connected: true,
    duration_seconds: 312,
    answered_at: '2026-11-27T18:00:05Z',
    recording_url: 'https://recordings.example.com/call-8842.mp3',
    transcript: TRANSCRIPT,
    disposition: 'sold',
  });
  expect(outcome.body).toMatchObject({ status: 'charged', charged_cents: 3700 });
}, 60_000);
afterAll(async () => f?.cleanup());

const get = (path: string, identity: Identity, headers?: Record<string, string>): Promise<Download> => download(f.transfers.url, path, identity, headers);

function packOf(answer: Download): EvidencePack {
  expect(answer.status, answer.text).toBe(200);
  return evidencePackSchema.parse(JSON.parse(answer.text));
}

describe("a transfer's evidence pack", () => {
  it("when its agent asks, then it holds the vendor's call record, the suppression check at routing, the charge and its order, and says the vendor keeps the consent", async () => {
    const pack = packOf(await get(`/api/my-transfers/${transferId}/evidence?format=json`, agent));
    const { rows } = await f.pool.query<{ routed_at: Date }>('SELECT routed_at FROM transfers WHERE id = $1', [transferId]);
    const routedAt = rows[0]!.routed_at.toISOString();

    expect(pack).toMatchObject({
      kind: 'transfer',
      id: transferId,
      prospect: { name: 'Nora Quinn', phone, state: 'VT', email: null },
      consent: { held: false, certificate: null, source: 'BrightCall (Final Expense)' },
      checksAtSale: { suppressionList: { checkedAt: routedAt, onList: false }, dncRegistry: { checked: false, registryDate: null, match: null } },
      sale: { orderId, priceCents: 3700, price: '$37.00', soldAt: routedAt, buyer: { userId: agent.userId, name: 'Avery Agent' } },
      vendorCall: {
        vendorName: 'BrightCall',
        callTime: '2026-11-27T18:00:05.000Z',
        durationSeconds: 312,
        transcript: TRANSCRIPT,
        recordingUrl: 'https://recordings.example.com/call-8842.mp3',
        outcome: "Charged (vendor's disposition: sold)",
      },
      currentSuppression: { suppressed: false, since: null },
      currentDncRegistry: null,
    });
    expect(pack.consent.statement).toContain('kept by the vendor');
  });

  it('when no format is asked, then it is one zip of the PDF and the JSON; the long transcript runs over several PDF pages', async () => {
    const answer = await get(`/api/my-transfers/${transferId}/evidence`, agent);

    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evidence-transfer-${transferId}.zip"`);
    const files = unzipFiles(answer.bytes);
    expect(Object.keys(files).sort()).toEqual(['evidence.json', 'evidence.pdf']);
    expect(evidencePackSchema.parse(JSON.parse(new TextDecoder().decode(files['evidence.json']))).vendorCall?.durationSeconds).toBe(312);
    const runs = pdfTextRuns(files['evidence.pdf']!);
    expect(runs).toContain('https://recordings.example.com/call-8842.mp3');
    expect(runs).toContain('Agent: question 120? Prospect: yes, I agreed to be transferred to a licensed agent.');
    expect(runs.some((r) => /page 3 of \d+$/.test(r))).toBe(true);
  });

  it('when the phone is suppressed after the transfer, then the pack says since when', async () => {
    const at = new Date('2026-11-27T18:30:00Z');
    await f.suppress(phone, true, at);

    const pack = packOf(await get(`/api/my-transfers/${transferId}/evidence`, agent, { accept: 'application/json' }));

    expect(pack.currentSuppression).toEqual({ suppressed: true, since: at.toISOString(), statement: 'Opted out since 2026-11-27 18:30:00 UTC: do not call.' });
    await f.suppress(phone, false, new Date('2026-11-27T18:40:00Z'));
    expect(packOf(await get(`/api/my-transfers/${transferId}/evidence?format=json`, agent)).currentSuppression.suppressed).toBe(false);
  });

  it("when another agent asks, or by a malformed id, then it is a 404; an admin gets any transfer's pack, an agent not at the admin's route", async () => {
    for (const path of [`/api/my-transfers/${transferId}/evidence`, `/api/my-transfers/${randomUUID()}/evidence`, '/api/my-transfers/nope/evidence']) {
      const answer = await get(path, other);
      expect(answer.status, path).toBe(404);
      expect(answer.text).toContain('Transfer not found');
      expect(answer.text).not.toContain('Nora');
    }

    const pdf = await get(`/api/admin/transfers/${transferId}/evidence?format=pdf`, admin);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="evidence-transfer-${transferId}.pdf"`);
    expect(pdfTextRuns(pdf.bytes).join(' ')).toContain('Nora Quinn');
    expect((await get(`/api/admin/transfers/${transferId}/evidence`, agent)).status).toBe(403);
    expect((await get('/api/admin/transfers/nope/evidence', admin)).status).toBe(404);
  });
});

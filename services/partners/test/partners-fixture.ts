import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Envelope } from '@warmline/contracts';
import { createLogger, createPool, parseConfig, type Identity, type Pool } from '@warmline/platform';
import { IDENTITY_HEADER } from '@warmline/platform/http/identity';
import { ANONYMOUS } from '@warmline/platform/identity';
import { signTestIdentity } from '@warmline/platform/testing/index';
import { callService, type Answer, type CallOptions } from '@warmline/platform/testing/calls';
import { outboxEnvelopes, startTestSystem } from '@warmline/platform/testing/system';
import { partnersEnv, type PartnersConfig } from '../src/config';
import { PARTNERS_SCHEMA, startPartners, type RunningPartners } from '../src/service';

/**
 * The partners service in-process on a free port for one test file: its own test database and
 * broker namespace, and a temporary BLOB_DIR whose files a test can list (nothing of a refused
 * application may be left there).
 */
export interface PartnersFixture {
  partners: RunningPartners;
  config: PartnersConfig;
  /** A pool on the partners schema, to arrange and inspect. */
  pool: Pool;
  blobDir: string;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** POSTs the application form as multipart: text fields, then each file as file_0, file_1, … */
  apply(fields: Record<string, string>, files?: TestFile[], options?: { identity?: Identity | null }): Promise<Answer>;
  /** Every file in the store (keys relative to BLOB_DIR, '/'-separated), unfinished ones included. */
  storedFiles(): Promise<string[]>;
  /** Envelopes in the outbox of one type, oldest first. */
  outbox(type: string): Promise<Envelope<Record<string, unknown>>[]>;
  cleanup(): Promise<void>;
}

interface TestFile {
  name: string;
  bytes: Uint8Array;
  /** What the browser would claim (the service does not believe it). */
  type?: string;
}

export async function startPartnersFixture(env: Record<string, string> = {}): Promise<PartnersFixture> {
  const system = await startTestSystem({ databasePrefix: 'wl_partners' });
  const { stops } = system;
  try {
    const blobDir = await mkdtemp(path.join(tmpdir(), 'wl-partners-blobs-'));
    stops.push('blob directory', () => rm(blobDir, { recursive: true, force: true }));
    const config = parseConfig(partnersEnv, { ...system.env, PARTNERS_PORT: '0', BLOB_DIR: blobDir, ...env });
    const partners = await startPartners(config, createLogger('partners', process.env.PARTNERS_TEST_LOG ?? 'silent'));
    stops.push('partners', partners.stop);
    const pool = createPool(system.db.url, PARTNERS_SCHEMA);
    stops.push('pool', () => pool.end());

    return {
      partners,
      config,
      pool,
      blobDir,
      call: (method, p, options) => callService(partners.url, method, p, options),
      async apply(fields, files = [], options = {}) {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        files.forEach((file, i) => form.append(`file_${i}`, new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name));
        const identity = options.identity === undefined ? ANONYMOUS : options.identity;
        // The gateway signs the client's address into the identity; an X-Forwarded-For is not believed.
        const headers: Record<string, string> = { 'x-forwarded-for': '198.51.100.66' };
        if (identity) headers[IDENTITY_HEADER] = signTestIdentity('partners', { ...identity, clientIp: '203.0.113.9' });
        const response = await fetch(`${partners.url}/api/affnetwork-signup`, { method: 'POST', headers, body: form });
        const text = await response.text();
        const json = (response.headers.get('content-type') ?? '').includes('json');
        return { status: response.status, headers: response.headers, text, body: json && text ? (JSON.parse(text) as Record<string, unknown>) : {} };
      },
      async storedFiles() {
        const entries = await readdir(blobDir, { recursive: true, withFileTypes: true });
        return entries
          .filter((e) => e.isFile())
          .map((e) => path.relative(blobDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
          .sort();
      },
      outbox: (type) => outboxEnvelopes(pool, type),
      cleanup: system.cleanup,
    };
  } catch (err) {
    await system.cleanup();
    throw err;
  }
}

/** An admin and a customer as the gateway signs them. */
export function adminIdentity(): Identity {
  return { userId: crypto.randomUUID(), username: `admin_${crypto.randomUUID().slice(0, 6)}`, isAdmin: true };
}

/** A complete, valid application form as the SPA sends it (multipart text fields). */
export function validFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    businessName: 'Acme Lead Partners',
    contactName: 'Dana Cole',
    email: 'dana.cole@acme-leads.example',
    phone: '(512) 555-0143',
    website: 'acme-leads.example',
    businessType: 'Lead Generation',
    experienceYears: '3-5 years',
    monthlyVolume: '1000-5000',
    servicesInterested: JSON.stringify(['Aged Leads', 'Call Transfers']),
    targetMarkets: 'Final expense and Medicare supplement buyers in TX, FL and AZ',
    businessDescription: 'We run compliant Facebook and search campaigns for senior insurance products nationwide.',
    whyPartner: 'We want a steady buyer for our aged inventory and live transfers with clear TCPA consent handling.',
    agreeToTerms: 'true',
    ...overrides,
  };
}

/** A minimal real PDF: one empty page, a valid cross-reference table. */
export function minimalPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** A 1×1 PNG. */
export function minimalPng(): Uint8Array {
  return Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
}

/** A PDF of exactly `bytes` bytes (a comment pads it after the header). */
export function pdfOfSize(bytes: number): Uint8Array {
  const pdf = minimalPdf();
  const out = Buffer.alloc(bytes, 0x20);
  Buffer.from(pdf).copy(out, 0, 0, Math.min(pdf.length, bytes));
  return out;
}

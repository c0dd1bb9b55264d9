import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Express, NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import type { SiteConfigResponse } from '@warmline/contracts/site-config';
import { chooseContentCoding, precompressedAssets } from './static-assets';

const OPS_PATHS = new Set(['/readyz', '/metrics', '/internal']);

/** Written by web/scripts/prerender.mjs beside the pages it renders. */
const PRERENDER_MANIFEST = 'prerender-manifest.json';

/**
 * What the prerender wrote into the pages where the run-time settings go: each field's stand-in
 * text, which the gateway swaps for the configured value. `supportPhone` also stands in a
 * `tel:` link, as its dialled digits.
 */
const prerenderManifestSchema = z.object({
  pages: z.record(z.string().regex(/^\/[a-z0-9-]*$/), z.string().regex(/^[a-z0-9/-]+\.html$/)),
  placeholders: z.object({
    supportPhone: z.string().min(6),
    supportEmail: z.string().min(6),
    testimonialName: z.string().min(6),
    testimonialTitle: z.string().min(6),
    testimonialQuote: z.string().min(6),
  }),
  /** sha256-… of inline <style> elements the pages carry, for the CSP's style-src. */
  inlineStyleHashes: z.array(z.string().regex(/^sha256-[A-Za-z0-9+/]+=*$/)),
});
type PrerenderManifest = z.infer<typeof prerenderManifestSchema>;

export interface SpaSettings {
  distDir: string;
  siteConfig: SiteConfigResponse;
  /** The Content-Security-Policy of a page, allowing styles with this nonce or these hashes. */
  contentSecurityPolicy(style: { nonce: string; hashes: readonly string[] }): string;
}

/** Stands where each answer's nonce goes, in the pages held in memory. */
const NONCE_SLOT = '\u0000csp-nonce\u0000';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The digits a `tel:` link dials; the same rule as the SPA's telHref (web/src/lib/site-config.ts). */
function dialledDigits(phone: string): string {
  return phone.replace(/[^\d+]/g, '');
}

/** JSON safe inside a <script> element: no `</script>`, no `<!--`. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function replaceAll(text: string, find: string, replacement: string): string {
  return text.split(find).join(replacement);
}

/**
 * A page as sent, but for its nonce: the prerendered settings swapped for the configured ones
 * (HTML-escaped), and in <head> the same settings as JSON for the SPA (so hydration renders
 * what the page shows) and the nonce the SPA gives the <style> elements it inserts.
 */
function fillPage(html: string, site: SiteConfigResponse, placeholders?: PrerenderManifest['placeholders']): string {
  let page = html;
  if (placeholders) {
    page = replaceAll(page, `tel:${placeholders.supportPhone}`, `tel:${escapeHtml(dialledDigits(site.supportPhone))}`);
    page = replaceAll(page, placeholders.supportPhone, escapeHtml(site.supportPhone));
    page = replaceAll(page, placeholders.supportEmail, escapeHtml(site.supportEmail));
    page = replaceAll(page, placeholders.testimonialName, escapeHtml(site.testimonial.name));
    page = replaceAll(page, placeholders.testimonialTitle, escapeHtml(site.testimonial.title));
    page = replaceAll(page, placeholders.testimonialQuote, escapeHtml(site.testimonial.quote));
  }
  const head =
    `<meta name="csp-nonce" content="${NONCE_SLOT}">` +
    `<script type="application/json" id="site-config">${scriptJson(site)}</script>`;
  // In <head>; a page without one (a bare shell) gets it after its doctype, where a parser puts it in <head> anyway.
  const closing = page.indexOf('</head>');
  const at = closing >= 0 ? closing : (/^<!doctype html>/i.exec(page)?.[0].length ?? 0);
  return page.slice(0, at) + head + page.slice(at);
}

function readManifest(distDir: string): PrerenderManifest | null {
  const file = path.join(distDir, PRERENDER_MANIFEST);
  if (!existsSync(file)) return null;
  const parsed = prerenderManifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a prerender manifest: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Serves the SPA build: its files precompressed (static-assets.ts), the public pages as
 * prerendered at build time and any other path outside /api as the SPA's shell (history
 * fallback: deep links like /reset-password?token=… load the app). Pages are filled with the
 * run-time settings once, at start; each answer gets its own CSP nonce. Returns false when there
 * is no build (the API still works).
 */
export function mountSpa(app: Express, settings: SpaSettings): boolean {
  const { distDir, siteConfig } = settings;
  const shellFile = path.join(distDir, 'index.html');
  if (!existsSync(shellFile)) return false;
  const manifest = readManifest(distDir);
  const styleHashes = manifest?.inlineStyleHashes ?? [];

  const shell = fillPage(readFileSync(shellFile, 'utf8'), siteConfig);
  const pages = new Map<string, string>();
  for (const [route, file] of Object.entries(manifest?.pages ?? {})) {
    pages.set(route, fillPage(readFileSync(path.join(distDir, file), 'utf8'), siteConfig, manifest?.placeholders));
  }

  app.use(precompressedAssets(distDir));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    // Operational paths live on the internal listener; here they are a plain 404, not the app.
    if (OPS_PATHS.has(req.path) || req.path.startsWith('/internal/')) return next();
    // A missing asset (has an extension) is a 404, not the app; /index.html is the shell.
    if (path.posix.extname(req.path) !== '' && req.path !== '/index.html') return next();

    const route = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    const template = pages.get(route) ?? shell;
    const nonce = randomBytes(16).toString('base64');
    const html = Buffer.from(replaceAll(template, NONCE_SLOT, nonce));
    // Different on every answer (the nonce), so compressed here, quickly, not at build time.
    const coding = chooseContentCoding(req.get('accept-encoding'), new Set(['br', 'gzip', 'identity']));
    const body =
      coding === 'br'
        ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
        : coding === 'gzip'
          ? gzipSync(html, { level: 6 })
          : html;

    res.setHeader('Content-Security-Policy', settings.contentSecurityPolicy({ nonce, hashes: styleHashes }));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
    res.setHeader('Content-Length', String(body.length));
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  });
  return true;
}

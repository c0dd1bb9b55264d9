import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The SPA build's files, sent as the build precompressed them (web/scripts/compress.mjs writes a
 * .br and a .gz beside each compressible file): brotli or gzip as the browser's Accept-Encoding
 * prefers, the file itself otherwise. Hashed assets never change under their name, so browsers
 * keep them a year; anything else is checked every time.
 */

export type ContentCoding = 'br' | 'gzip' | 'identity';

const CODING_SUFFIX: Record<Exclude<ContentCoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/** Vite's output names: /assets/{name}-{8+ character hash}.{ext}. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

/**
 * The coding to send, given the Accept-Encoding header and the codings on disk: the highest
 * q-value wins, brotli before gzip on a tie; `*` stands for any coding not named; q=0 refuses.
 * Without an acceptable compressed copy, the file itself (identity).
 */
export function chooseContentCoding(acceptEncoding: string | undefined, available: ReadonlySet<ContentCoding>): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName = '', ...params] = part.trim().split(';');
    const name = rawName.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((s) => s.trim());
      if (key?.toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1 ? parsed : 0;
      }
    }
    // A coding named twice keeps its highest weight.
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  let best: ContentCoding = 'identity';
  let bestWeight = 0;
  for (const coding of ['br', 'gzip'] as const) {
    if (!available.has(coding)) continue;
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3).
    const weight = coding === 'gzip' ? Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0) : weightOf(coding);
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

function cacheControlOf(urlPath: string): string {
  return HASHED_ASSET.test(urlPath) ? IMMUTABLE : 'no-cache';
}

/**
 * The file under `root` a URL path names, or null when it names none the site serves: no
 * escape from `root` (`..`, encoded or not), no dot files (Vite's .vite/manifest.json), no
 * precompressed copies asked for by name, no HTML (pages are served with their settings filled in).
 */
function assetPathOf(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((s) => s.startsWith('.'))) return null;
  const ext = path.extname(decoded).toLowerCase();
  if (ext === '.br' || ext === '.gz' || ext === '.html') return null;
  const full = path.resolve(root, ...segments);
  if (!full.startsWith(root + path.sep)) return null;
  return full;
}

async function fileStats(file: string): Promise<Stats | null> {
  try {
    const stats = await stat(file);
    return stats.isFile() ? stats : null;
  } catch {
    return null;
  }
}

/** Serves the build's files from `distDir`; anything it does not serve goes on to the next handler. */
export function precompressedAssets(distDir: string): RequestHandler {
  const root = path.resolve(distDir);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = assetPathOf(root, req.path);
    if (!file) return next();
    void (async () => {
      const original = await fileStats(file);
      if (!original) return next();
      const copies = new Map<ContentCoding, Stats>([['identity', original]]);
      for (const coding of ['br', 'gzip'] as const) {
        const copy = await fileStats(file + CODING_SUFFIX[coding]);
        if (copy) copies.set(coding, copy);
      }
      const coding = chooseContentCoding(req.get('accept-encoding'), new Set(copies.keys()));
      const sent = copies.get(coding) ?? original;
      const sentFile = coding === 'identity' ? file : file + CODING_SUFFIX[coding];

      res.setHeader('Content-Type', contentTypeOf(file));
      res.setHeader('Cache-Control', cacheControlOf(req.path));
      // Caches must not hand a brotli copy to a browser that asked for gzip.
      if (copies.size > 1) res.setHeader('Vary', 'Accept-Encoding');
      if (coding !== 'identity') res.setHeader('Content-Encoding', coding);
      const etag = `"${original.size.toString(36)}-${Math.floor(original.mtimeMs).toString(36)}-${coding}"`;
      res.setHeader('ETag', etag);
      res.setHeader('Last-Modified', original.mtime.toUTCString());
      if (req.get('if-none-match') === etag) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Length', String(sent.size));
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      const stream = createReadStream(sentFile);
      stream.on('error', (err) => {
        // Gone between stat and read (a rebuild): a 404 if nothing was sent yet, else cut short.
        if (!res.headersSent) {
          res.removeHeader('Content-Encoding');
          res.removeHeader('Content-Length');
          next();
        } else res.destroy(err);
      });
      stream.pipe(res);
    })().catch(next);
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';

const OPS_PATHS = new Set(['/readyz', '/metrics', '/internal']);

/**
 * Serves the SPA build with history fallback: any GET outside /api that is not a file gets
 * index.html, so deep links like /reset-password?token=… load the app. Returns false when
 * there is no build (the API still works).
 */
export function mountSpa(app: Express, distDir: string): boolean {
  const indexHtml = path.join(distDir, 'index.html');
  if (!existsSync(indexHtml)) return false;
  app.use(express.static(distDir, { index: false }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    // Operational paths live on the internal listener; here they are a plain 404, not the app.
    if (OPS_PATHS.has(req.path) || req.path.startsWith('/internal/')) return next();
    // A missing asset (has an extension) is a 404, not the app.
    if (path.posix.extname(req.path) !== '') return next();
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(indexHtml);
  });
  return true;
}

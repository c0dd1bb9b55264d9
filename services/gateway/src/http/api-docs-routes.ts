import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Request, Response, Router } from 'express';
import { notFound } from '@warmline/platform';
import { manifestRoutes } from '@warmline/platform/http/manifest-routes';
import { ASYNCAPI_URL_PATH, buildAsyncApiDocument } from '@warmline/contracts/docs/asyncapi';
import { API_DOCS_PATH, OPENAPI_PATH, renderOpenApi } from '@warmline/contracts/docs/openapi';
import { sessionAsker } from '../edge/access';

/**
 * The API's description and its reference (issue 16): `GET /api/openapi.json`, generated from
 * the route manifest, and `GET /api/docs`, Swagger UI (swagger-ui-dist, from node_modules:
 * no CDN, and never part of the SPA's bundles) reading it. The page's script, style sheet and
 * icon are `/api/docs/{file}`; the page names each with its content hash (`?v=`), so they are
 * cached for a year and the page itself is revalidated every time. Everything is same-origin
 * and script-only-from-files, so the site's Content-Security-Policy holds unchanged.
 * `GET /api/asyncapi.json` is the events' and commands' AsyncAPI description, served the same way.
 */

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** How the page starts Swagger UI: a file, since the CSP allows no inline script. */
const INIT_SCRIPT = `'use strict';
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  // No call to the public validator service: everything stays on this site.
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
  // Same-origin calls carry the session cookie; a write that is not JSON needs this header (edge/csrf.ts).
  requestInterceptor: function (request) {
    request.headers['X-Requested-With'] = 'XMLHttpRequest';
    return request;
  },
});
`;

interface Asset {
  type: string;
  body: Buffer;
  version: string;
  gzipped?: Buffer;
}

function asset(type: string, body: Buffer): Asset {
  return { type, body, version: createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

function loadAssets(): Map<string, Asset> {
  const file = (name: string) => readFileSync(path.join(swaggerUiDir, name));
  return new Map([
    ['swagger-ui-bundle.js', asset('text/javascript; charset=utf-8', file('swagger-ui-bundle.js'))],
    ['swagger-ui.css', asset('text/css; charset=utf-8', file('swagger-ui.css'))],
    ['favicon-32x32.png', asset('image/png', file('favicon-32x32.png'))],
    ['api-docs.js', asset('text/javascript; charset=utf-8', Buffer.from(INIT_SCRIPT))],
  ]);
}

function docsPage(assets: Map<string, Asset>): string {
  const href = (name: string) => `${API_DOCS_PATH}/${name}?v=${assets.get(name)!.version}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>WarmLine API reference</title>
<link rel="icon" type="image/png" href="${href('favicon-32x32.png')}">
<link rel="stylesheet" href="${href('swagger-ui.css')}">
</head>
<body>
<noscript><p>The interactive reference needs JavaScript. The API's description is <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a> (OpenAPI 3.1).</p></noscript>
<div id="swagger-ui"></div>
<script src="${href('swagger-ui-bundle.js')}"></script>
<script src="${href('api-docs.js')}"></script>
</body>
</html>
`;
}

function acceptsGzip(req: Request): boolean {
  return /\bgzip\b/i.test(req.get('accept-encoding') ?? '');
}

/** Sends a body, gzipped when the client takes it and it is worth it. */
function send(req: Request, res: Response, type: string, body: Buffer, gzipped: () => Buffer | undefined): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Vary', 'Accept-Encoding');
  const packed = acceptsGzip(req) ? gzipped() : undefined;
  if (packed) res.setHeader('Content-Encoding', 'gzip');
  res.end(req.method === 'HEAD' ? undefined : (packed ?? body));
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A JSON document that changes only with the code: serialised once, revalidated by a weak
 * ETag (the same for the plain and the gzipped bytes), gzipped on first demand.
 */
function servedDocument(value: unknown): (req: Request, res: Response) => void {
  const body = Buffer.from(JSON.stringify(value));
  const tag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  let gzipped: Buffer | undefined;
  return (req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('ETag', tag);
    if (req.get('if-none-match') === tag) {
      res.status(304).end();
      return;
    }
    send(req, res, 'application/json; charset=utf-8', body, () => (gzipped ??= gzipSync(body)));
  };
}

export function apiDocsRoutes(): Router {
  const assets = loadAssets();
  const page = Buffer.from(docsPage(assets));
  const openApi = servedDocument(renderOpenApi());
  const asyncApi = servedDocument(buildAsyncApiDocument());

  return manifestRoutes('gateway', sessionAsker)
    .on(`GET ${OPENAPI_PATH}`, ({ req, res }) => openApi(req, res))
    .on(`GET ${ASYNCAPI_URL_PATH}`, ({ req, res }) => asyncApi(req, res))
    .on(`GET ${API_DOCS_PATH}`, ({ req, res }) => {
      res.setHeader('Cache-Control', 'no-cache');
      send(req, res, 'text/html; charset=utf-8', page, () => undefined);
    })
    .on(`GET ${API_DOCS_PATH}/{file}`, ({ params, req, res }) => {
      const file = assets.get(params.file);
      if (!file) throw notFound(`Not found: ${req.method} ${req.path}`);
      // A page of an older version may ask for a file that has changed since: not cached for long then.
      res.setHeader('Cache-Control', req.query.v === file.version ? IMMUTABLE : 'no-cache');
      res.setHeader('ETag', `W/"${file.version}"`);
      const compressible = !file.type.startsWith('image/');
      send(req, res, file.type, file.body, () => (compressible ? (file.gzipped ??= gzipSync(file.body)) : undefined));
    }).router;
}

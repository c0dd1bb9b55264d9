import type { Express } from 'express';
import { isMountedByManifestKit } from './manifest-routes';

/** One route an HTTP app answers: its method and its path as the code wrote it. */
export interface ServedRoute {
  /** The service whose app serves it (createHttpApp's `service`), when known. */
  service?: string;
  method: string;
  /** An Express path ('/api/users/:id') or, for a pattern route, the regular expression's source. */
  path: string;
  /** Mounted from the route manifest by the kit (manifest-routes.ts), not by hand. */
  fromManifest?: true;
}

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack?: Array<{ handle?: unknown }> };
  handle?: { stack?: Layer[] };
}

const servedApps = new Map<Express, ServedRoute[]>();

/**
 * Every route an Express app answers, read from its router (nested routers mounted at '/'
 * included). Used to hold the served routes against the route manifest in tests.
 */
function routesOf(app: Express): ServedRoute[] {
  const router = (app as unknown as { router?: { stack: Layer[] } }).router;
  return router ? walk(router.stack) : [];
}

function walk(stack: Layer[], prefix = ''): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method === '_all') continue;
          const fromManifest = layer.route.stack?.some((l) => isMountedByManifestKit(l.handle)) ? ({ fromManifest: true } as const) : {};
          routes.push({ method: method.toUpperCase(), path: path instanceof RegExp ? path.source : `${prefix}${String(path)}`, ...fromManifest });
        }
      }
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      routes.push(...walk(layer.handle.stack, `${prefix}${mount}`));
    }
  }
  return routes;
}

/** Remembers an app that `serve` started, so a test running services in-process can list their routes. */
export function recordServedApp(app: Express): () => void {
  const service: unknown = app.locals.service;
  servedApps.set(
    app,
    routesOf(app).map((route) => (typeof service === 'string' ? { service, ...route } : route)),
  );
  return () => servedApps.delete(app);
}

/** The routes of every app served in this process and not stopped since. */
export function servedRoutes(): ServedRoute[] {
  return [...servedApps.values()].flat();
}

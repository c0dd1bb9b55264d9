import type { ReactElement, ReactNode } from 'react';
import { createRoutesFromChildren, type RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { SPA_ROUTES, isReservedSlug } from '@warmline/contracts/spa-routes';
import { AppRoutes } from '../src/routes';

/** The catch-alls: a salesperson's referral page and the 404. */
const CATCH_ALLS = new Set(['/:name', '*']);

/** Every path of the route table as react-router reads it (nested routes included). */
function declaredPaths(): string[] {
  const table = AppRoutes() as ReactElement<{ children: ReactNode }>;
  const paths: string[] = [];
  const walk = (routes: RouteObject[]) => {
    for (const route of routes) {
      if (route.path !== undefined) paths.push(route.path);
      if (route.children) walk(route.children);
    }
  };
  walk(createRoutesFromChildren(table.props.children));
  return paths;
}

describe('the SPA route list (services/contracts/src/spa-routes.ts)', () => {
  it('when routes.tsx declares a page, then the list names it (add new pages to both)', () => {
    const declared = declaredPaths().filter((path) => !CATCH_ALLS.has(path));
    expect(declared.length).toBeGreaterThan(20);
    const missing = declared.filter((path) => !(SPA_ROUTES as readonly string[]).includes(path));
    expect(missing, 'paths in web/src/routes.tsx missing from services/contracts/src/spa-routes.ts').toEqual([]);
  });

  it('when the list names a page, then routes.tsx declares it (no stale entries)', () => {
    const declared = new Set(declaredPaths());
    expect(SPA_ROUTES.filter((path) => !declared.has(path))).toEqual([]);
  });

  it('when the table is read, then the referral page and the 404 are its catch-alls', () => {
    expect(declaredPaths().filter((path) => CATCH_ALLS.has(path)).sort()).toEqual(['*', '/:name']);
  });

  it('when a slug is the first segment of a page or a server word, then it is reserved', () => {
    for (const slug of ['admin', 'dashboard', 'survey', 'admin-audit-log', 'api', 'internal', 'Admin']) {
      expect(isReservedSlug(slug), slug).toBe(true);
    }
    expect(isReservedSlug('john')).toBe(false);
  });
});

import { createContext, createElement, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { SiteConfigResponse } from '@warmline/contracts/site-config';
import { apiRequest } from './api';

/**
 * The site's contact details, testimonial and booking widget (`GET /api/site-config`, the
 * gateway's configuration). Shared by every public page that shows a phone or e-mail.
 *
 * The gateway writes them into every page it serves (`<script id="site-config">`, see
 * services/gateway/src/edge/spa.ts): read from there, a prerendered page hydrates with exactly
 * the settings its markup shows, and no request is made. Kept without react-query on purpose:
 * the public pages need nothing else of it, so it stays off the landing route's JavaScript.
 */

export type SiteConfig = SiteConfigResponse;

function isSiteConfig(value: unknown): value is SiteConfig {
  if (typeof value !== 'object' || value === null) return false;
  const site = value as Partial<Record<keyof SiteConfig, unknown>>;
  const testimonial = site.testimonial as Partial<Record<keyof SiteConfig['testimonial'], unknown>> | null | undefined;
  return (
    typeof site.supportPhone === 'string' &&
    typeof site.supportEmail === 'string' &&
    (site.bookingUrl === null || typeof site.bookingUrl === 'string') &&
    typeof testimonial?.name === 'string' &&
    typeof testimonial.title === 'string' &&
    typeof testimonial.quote === 'string'
  );
}

/** The settings the page was served with, if the gateway wrote them (not under `vite dev`). */
function servedSiteConfig(): SiteConfig | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById('site-config')?.textContent;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isSiteConfig(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A phone number as a `tel:` link dials it; the gateway fills prerendered links by the same rule. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** Settings handed in from outside the page: the build's prerender (its stand-ins) and tests. */
const GivenSiteConfig = createContext<SiteConfig | undefined>(undefined);

export function SiteConfigProvider({ value, children }: { value: SiteConfig; children: ReactNode }) {
  return createElement(GivenSiteConfig.Provider, { value }, children);
}

/** The tab's settings: read once from the page, else asked of the gateway (one request, however many readers). */
let known: SiteConfig | undefined;
let readFromPage = false;
let asking = false;
let failed = false;
const listeners = new Set<() => void>();

function knownSiteConfig(): SiteConfig | undefined {
  if (!readFromPage) {
    readFromPage = true;
    known = servedSiteConfig();
  }
  return known;
}

const askFailed = () => failed;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function settle(site: SiteConfig | undefined): void {
  asking = false;
  if (site) known = site;
  failed = !site;
  for (const listener of listeners) listener();
}

function askGateway(): void {
  if (asking || knownSiteConfig()) return;
  asking = true;
  apiRequest<SiteConfig>('/api/site-config').then(settle, () => settle(undefined));
}

export interface SiteConfigState {
  /** Undefined until known: only under `vite dev`, as served pages carry them. */
  data: SiteConfig | undefined;
  /** The gateway could not be asked; `refetch` asks again. */
  isError: boolean;
  refetch(): void;
}

export function useSiteConfig(): SiteConfigState {
  const given = useContext(GivenSiteConfig);
  // The same on the server snapshot: hydration reads the JSON the gateway wrote with the markup.
  const fromTab = useSyncExternalStore(subscribe, knownSiteConfig, knownSiteConfig);
  const isError = useSyncExternalStore(subscribe, askFailed, () => false);
  const data = given ?? fromTab;
  useEffect(() => {
    if (!data && !askFailed()) askGateway();
  }, [data]);
  return { data, isError: !data && isError, refetch: askGateway };
}

/**
 * The zone the back office shows times in: BUSINESS_TIMEZONE, as the gateway serves it with the
 * site's settings (issue 22); UTC until known or from an older gateway.
 */
export function useBusinessTimeZone(): string {
  return useSiteConfig().data?.businessTimeZone ?? 'UTC';
}

import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Stripe.js's origins, as Stripe's CSP guide lists them: the script and its frames (card
 * fields, 3-D Secure) load from js.stripe.com and its subdomains, 3-D Secure redirects through
 * hooks.stripe.com, and the script calls api.stripe.com.
 */
const STRIPE_SCRIPT_ORIGINS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAME_ORIGINS = ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_CONNECT_ORIGINS = ['https://api.stripe.com'];

export interface SecurityHeaderSettings {
  /** The landing page's booking widget (BOOKING_URL), framed when configured. */
  bookingUrl?: string | undefined;
  /** The dashboard's training videos' embed addresses (TRAINING_VIDEOS). */
  embedUrls: readonly string[];
  /** HSTS only in production: on local http it would pin localhost to https. */
  production: boolean;
}

/** Inline styles a page may carry: its answer's nonce, and hashes of the prerendered pages' <style> elements. */
export interface InlineStyles {
  nonce?: string | undefined;
  hashes?: readonly string[] | undefined;
}

/**
 * The Content-Security-Policy of every gateway answer. Pages (spa.ts) pass their answer's
 * nonce: Radix's dialogs insert <style> elements at run time and give them the nonce the page
 * carries (web/src/main.tsx), so no 'unsafe-inline' is needed.
 */
export function contentSecurityPolicy(
  settings: Pick<SecurityHeaderSettings, 'bookingUrl' | 'embedUrls'>,
  inline: InlineStyles = {},
): string {
  const styleSources = ["'self'", ...(inline.nonce ? [`'nonce-${inline.nonce}'`] : []), ...(inline.hashes ?? []).map((h) => `'${h}'`)];
  const framed = [settings.bookingUrl, ...settings.embedUrls].filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin);
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    // The SPA's own bundles and Stripe.js: no inline script, no eval.
    ['script-src', ["'self'", ...STRIPE_SCRIPT_ORIGINS]],
    // The SPA's stylesheets; <style> elements only with the page's nonce or a build-time hash.
    ['style-src', styleSources],
    // The favicon and the CSS icons are data: SVGs; Stripe's card brand images.
    ['img-src', ["'self'", 'data:', 'https://*.stripe.com']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...STRIPE_CONNECT_ORIGINS]],
    ['frame-src', unique([...STRIPE_FRAME_ORIGINS, ...framed])],
    ['frame-ancestors', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * Sets the security headers on every answer: mounted before every route, so errors, 404s,
 * liveness and forwarded answers carry them too.
 */
export function securityHeaders(settings: SecurityHeaderSettings): RequestHandler {
  const headers: Array<[string, string]> = [
    ['Content-Security-Policy', contentSecurityPolicy(settings)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    // For browsers without frame-ancestors.
    ['X-Frame-Options', 'DENY'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
  ];
  if (settings.production) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * The gateway's Content-Security-Policy has no 'unsafe-eval'. Zod compiles object parsers with
 * `new Function` when it may, and its probe for that already raises a securitypolicyviolation;
 * jitless skips both. Imported first by main.tsx: object schemas read the setting when created.
 *
 * Zod keeps its settings in one global object (`z.config()` merges into it, zod/v4/core/core.js)
 * and keeps an object it finds there. Setting it here, instead of importing zod's `config`,
 * keeps zod off the landing route's JavaScript (its core utilities alone are 5 KB gzip);
 * web/test/zod-without-eval.test.ts fails if zod stops reading it.
 */
const ZOD_SETTINGS = '__zod_globalConfig';

const holder = globalThis as { [ZOD_SETTINGS]?: Record<string, unknown> };
holder[ZOD_SETTINGS] = { ...holder[ZOD_SETTINGS], jitless: true };

export {};

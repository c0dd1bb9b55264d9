import { config } from 'zod';

/**
 * The gateway's Content-Security-Policy has no 'unsafe-eval'. Zod compiles object parsers with
 * `new Function` when it may, and its probe for that already raises a securitypolicyviolation;
 * jitless skips both. Imported first by main.tsx: object schemas read the setting when created.
 */
config({ jitless: true });

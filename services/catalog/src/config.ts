import { z } from 'zod';
import { baseEnv, privateKeyEnv, servicePublicKeysEnv } from '@warmline/platform/config';
import { blobStoreEnv } from '@warmline/platform/blob-store/index';
import { businessTimezoneSchema, LEAD_IMPORT_MAX_BYTES } from '@warmline/contracts';

/** What the catalog service and its importer worker (the second entry point) both read. */
const sharedEnv = {
  ...baseEnv,
  ...blobStoreEnv,
  /** Form-fill times without an offset are read in this zone; a duplicate is the same phone on the same day here. */
  BUSINESS_TIMEZONE: businessTimezoneSchema,
  /** The largest import file accepted (at most the manifest's 500 MB). */
  LEAD_IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).max(LEAD_IMPORT_MAX_BYTES).default(LEAD_IMPORT_MAX_BYTES),
};

export const catalogEnv = {
  ...sharedEnv,
  CATALOG_PORT: z.coerce.number().int().min(0).max(65535).default(3101),
  /** The catalog's own Ed25519 key, for its calls to orders and the gateway (docs/adr/0042). */
  CATALOG_SERVICE_KEY: privateKeyEnv,
  /** Public keys of the services that call this one, `name:key,…` (docs/adr/0042). */
  SERVICE_PUBLIC_KEYS: servicePublicKeysEnv,
  /** The orders service, which takes the payment of reserved leads. */
  ORDERS_URL: z.url().default('http://127.0.0.1:3102'),
  /** The gateway's internal listener, which owns users: a buyer's e-mail for an opt-out notice. */
  GATEWAY_INTERNAL_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('http://127.0.0.1:3100'),
  /** How often unpaid reservations older than 15 minutes are released. */
  RESERVATION_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** How often callback opportunities past their 72 hours expire (and what could not be assigned is tried again). */
  CALLBACK_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
};

export type CatalogConfig = z.infer<z.ZodObject<typeof catalogEnv>>;

export const importerEnv = {
  ...sharedEnv,
  /** Health and metrics only (ARCHITECTURE §6). */
  IMPORTER_PORT: z.coerce.number().int().min(0).max(65535).default(3106),
  /**
   * Rows loaded per transaction: progress is saved, and a restart resumes, batch by batch. Two
   * batches are in memory (one loading, the next being read) within the importer's 96 MB heap:
   * measured (issue 27), 25,000 spent more CPU on garbage collection than it saved and 50,000 ran
   * out of heap, so 20,000 is the most it takes.
   */
  LEAD_IMPORT_BATCH_ROWS: z.coerce.number().int().min(100).max(20_000).default(10_000),
  /** How often the worker looks for imports nobody is running (a lost command, a crashed worker). */
  LEAD_IMPORT_RECOVERY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
};

export type ImporterConfig = z.infer<z.ZodObject<typeof importerEnv>>;

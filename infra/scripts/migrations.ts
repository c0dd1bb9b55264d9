import { runMigrations } from '@warmline/platform/db/index';
import type { Logger } from '@warmline/platform/log';
import { listServices } from './services';

export interface ServiceMigrations {
  service: string;
  schema: string;
  dir: string;
}

/**
 * Every service's schema and migrations folder, taken from its own service.ts
 * (`<NAME>_SCHEMA`, `<NAME>_MIGRATIONS_DIR`) for each entry of infra/services.json. An entry
 * with schemaOf (the importer) is left out: its schema is that service's, migrated once there.
 */
export async function serviceMigrations(): Promise<ServiceMigrations[]> {
  const found: ServiceMigrations[] = [];
  for (const { name, schemaOf } of listServices()) {
    if (schemaOf !== undefined) continue;
    const prefix = name.toUpperCase().replaceAll('-', '_');
    const module = (await import(`@warmline/${name}/service`)) as Record<string, unknown>;
    const schema = module[`${prefix}_SCHEMA`];
    const dir = module[`${prefix}_MIGRATIONS_DIR`];
    if (typeof schema !== 'string' || typeof dir !== 'string') {
      throw new Error(`services/${name}/src/service.ts must export ${prefix}_SCHEMA and ${prefix}_MIGRATIONS_DIR`);
    }
    found.push({ service: name, schema, dir });
  }
  return found;
}

/**
 * Brings every service's schema up to date, one after the other, as the schema's owner role
 * after creating its roles (docs/adr/0043; `databaseUrl` is the superuser's). The app role's
 * password is POSTGRES_<SCHEMA>_PASSWORD where set (compose, Kubernetes); locally none.
 */
export async function migrateAll(databaseUrl: string, log?: Logger, env: NodeJS.ProcessEnv = process.env): Promise<ServiceMigrations[]> {
  const all = await serviceMigrations();
  for (const m of all) {
    const appPassword = env[`POSTGRES_${m.schema.toUpperCase()}_PASSWORD`] || undefined;
    await runMigrations({ databaseUrl, schema: m.schema, dir: m.dir, ...(log ? { log } : {}), roles: { appPassword } });
    log?.info({ service: m.service, schema: m.schema }, 'schema up to date');
  }
  return all;
}

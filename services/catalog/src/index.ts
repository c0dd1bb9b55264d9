export { startCatalog, CATALOG_SCHEMA, CATALOG_MIGRATIONS_DIR, type RunningCatalog, type CatalogOptions } from './service';
export { catalogEnv, type CatalogConfig } from './config';

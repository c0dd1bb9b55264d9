export { startPartners, PARTNERS_SCHEMA, PARTNERS_MIGRATIONS_DIR, type RunningPartners, type PartnersOptions } from './service';
export { partnersEnv, type PartnersConfig } from './config';

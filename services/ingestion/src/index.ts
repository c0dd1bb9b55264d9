export { startIngestion, INGESTION_SCHEMA, INGESTION_MIGRATIONS_DIR, type RunningIngestion, type IngestionOptions } from './service';
export { ingestionEnv, type IngestionConfig } from './config';

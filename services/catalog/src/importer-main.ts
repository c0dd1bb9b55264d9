import { runService } from '@warmline/platform/lifecycle';
import { importerEnv } from './config';
import { startImporter } from './importer';

// The catalog's second entry point: the aged-lead importer worker (docs/adr/0016).
await runService('importer', importerEnv, startImporter);

import os from 'node:os';
import { runService } from '@warmline/platform/lifecycle';
import { importerEnv } from './config';
import { startImporter } from './importer';

// A batch worker beside request-serving processes: below normal CPU priority, so on a shared
// machine the market's requests run first and the import takes what is left (issue 27).
os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);

// The catalog's second entry point: the aged-lead importer worker (docs/adr/0016).
await runService('importer', importerEnv, startImporter);

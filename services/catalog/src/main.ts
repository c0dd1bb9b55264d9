import { runService } from '@warmline/platform/lifecycle';
import { catalogEnv } from './config';
import { startCatalog } from './service';

await runService('catalog', catalogEnv, startCatalog);

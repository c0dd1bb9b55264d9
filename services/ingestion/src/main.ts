import { runService } from '@warmline/platform/lifecycle';
import { ingestionEnv } from './config';
import { startIngestion } from './service';

await runService('ingestion', ingestionEnv, startIngestion);

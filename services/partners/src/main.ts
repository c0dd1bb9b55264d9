import { runService } from '@warmline/platform/lifecycle';
import { partnersEnv } from './config';
import { startPartners } from './service';

await runService('partners', partnersEnv, startPartners);

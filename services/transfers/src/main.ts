import { runService } from '@warmline/platform/lifecycle';
import { transfersEnv } from './config';
import { startTransfers } from './service';

await runService('transfers', transfersEnv, startTransfers);

import { runService } from '@warmline/platform';
import { gatewayEnv } from './config';
import { startGateway } from './service';

await runService('gateway', gatewayEnv, (config, log) => startGateway(config, { log }));

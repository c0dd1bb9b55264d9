import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ASYNCAPI_PATH, renderAsyncApi } from '@warmline/contracts/docs/asyncapi';
import { REPO_ROOT } from './services';

// `npm run docs:events`: rewrites the event catalog from the contracts' schemas, examples and
// broker manifest (services/contracts/test/contracts.test.ts fails while it is out of date).
writeFileSync(ASYNCAPI_PATH, renderAsyncApi());
process.stdout.write(`wrote ${path.relative(REPO_ROOT, ASYNCAPI_PATH)}\n`);

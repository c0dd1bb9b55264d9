import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderAsyncApi } from '@warmline/contracts/asyncapi';
import { REPO_ROOT } from './services';

// `npm run docs:events`: rewrites the event catalog from the contracts' schemas and broker manifest
// (services/contracts/test/contracts.test.ts fails while it is out of date).
const file = path.join(REPO_ROOT, 'docs/events/asyncapi.json');
writeFileSync(file, renderAsyncApi());
process.stdout.write(`wrote ${path.relative(REPO_ROOT, file)}\n`);

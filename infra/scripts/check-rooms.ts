/**
 * The rule dependency-cruiser cannot see (issue 26): a domain file writes no SQL. Queries live in
 * db/ (a function per query, transactions through platform/db's withTransaction, inTransaction,
 * withSavepoint); the domain decides and calls them. Run by `make rules`; exits 1 naming each
 * offending line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './services';

/** A call of a driver's query method, or SQL's verbs at the start of a string. */
const QUERY = /\.query\s*(<[^>]*>)?\s*\(|[`'"]\s*(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|BEGIN|COMMIT|SAVEPOINT|ANALYZE|CREATE|DROP)\b/;

function domainFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      found.push(...(name === 'domain' ? listTs(full) : name === 'node_modules' ? [] : domainFiles(full)));
    }
  }
  return found;
}

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listTs(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const services = path.join(REPO_ROOT, 'services');
const offences: string[] = [];
for (const service of readdirSync(services)) {
  const src = path.join(services, service, 'src');
  if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue;
  for (const file of domainFiles(src)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (QUERY.test(line) && !line.trim().startsWith('*') && !line.trim().startsWith('//')) {
          offences.push(`${path.relative(REPO_ROOT, file)}:${i + 1}: ${line.trim()}`);
        }
      });
  }
}
if (offences.length > 0) {
  process.stderr.write(`SQL in a domain file (move it to db/, issue 26):\n${offences.map((o) => `  ${o}`).join('\n')}\n`);
  process.exit(1);
}
console.log('✔ no SQL in domain files');

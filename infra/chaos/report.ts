import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/services';
import type { Integrity } from './checks';
import { doubledCount, lostCount } from './checks';
import type { FaultResult } from './faults';
import type { ReplicaKill } from './kills';
import type { Action, Sample, SessionLoss } from './load';
import type { ProcessExit } from './system';

/** What happened in one stretch of the run: a fault (stop → all green again) or the calm before. */
export interface Window {
  label: string;
  from: number;
  to: number;
  fault?: FaultResult;
  /** A replica killed with SIGKILL (several replicas): from the kill until every /readyz is green. */
  kill?: ReplicaKill;
  /** Sessions lost and processes exited are counted up to the next fault, not only to green. */
  consequencesTo: number;
}

interface WindowFigures {
  requests: number;
  answered: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
  noAnswer: number;
  serverErrorP50: number | null;
  serverErrorMax: number | null;
  sessionsLost: number;
  exited: ProcessExit[];
}

function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function figures(samples: Sample[], losses: SessionLoss[], exits: ProcessExit[], w: Window): WindowFigures {
  const inside = samples.filter((s) => s.at >= w.from && s.at < w.to);
  const fiveXX = inside.filter((s) => s.status >= 500).map((s) => s.ms);
  return {
    requests: inside.length,
    answered: inside.filter((s) => s.status !== 0).length,
    ok: inside.filter((s) => s.status >= 200 && s.status < 400).length,
    clientErrors: inside.filter((s) => s.status >= 400 && s.status < 500).length,
    serverErrors: fiveXX.length,
    noAnswer: inside.filter((s) => s.status === 0).length,
    serverErrorP50: percentile(fiveXX, 0.5),
    serverErrorMax: percentile(fiveXX, 1),
    sessionsLost: losses.filter((l) => l.at >= w.from && l.at < w.consequencesTo).length,
    exited: exits.filter((e) => e.at >= w.from && e.at < w.consequencesTo),
  };
}

const ms = (v: number | null) => (v === null ? '–' : v.toFixed(0));
const seconds = (from: number | null | undefined, to: number | null | undefined) =>
  from === null || from === undefined || to === null || to === undefined ? 'never' : ((to - from) / 1000).toFixed(1);
const exitText = (exits: ProcessExit[]) =>
  exits.length === 0 ? 'none' : `**${exits.map((e) => `${e.name} (${e.signal ?? `exit ${String(e.code)}`})`).join(', ')}**`;

const ACTIONS: Action[] = ['sign-up', 'login', 'market', 'lead purchase', 'lead payment', 'package intent', 'package payment', 'vendor call', 'transfer route', 'transfer outcome'];

function actionTable(samples: Sample[]): string[] {
  const lines = ['| request | sent | 2xx/3xx | 4xx | 5xx | no answer | p50 ms | p95 ms | max ms |', '|---|---|---|---|---|---|---|---|---|'];
  for (const action of ACTIONS) {
    const of = samples.filter((s) => s.action === action);
    if (of.length === 0) continue;
    const times = of.map((s) => s.ms);
    lines.push(
      `| ${action} | ${of.length} | ${of.filter((s) => s.status >= 200 && s.status < 400).length} | ${of.filter((s) => s.status >= 400 && s.status < 500).length} | ` +
        `${of.filter((s) => s.status >= 500).length} | ${of.filter((s) => s.status === 0).length} | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.95))} | ${ms(percentile(times, 1))} |`,
    );
  }
  return lines;
}

export interface RunFacts {
  command: string;
  date: string;
  faults: string;
  users: number;
  paceMs: number;
  /** Null for a dry run (no faults, so no calm between them). */
  calmSeconds: number | null;
  loadSeconds: number;
  environment: string;
  drainedAfterMs: number | null;
  processesExited: ProcessExit[];
  redisPersists: boolean;
  /** Faults after which some /readyz never turned green again within the ceiling. */
  neverReady: string[];
  /** Copies of every process; above 1, each HTTP port is behind a round-robin proxy. */
  replicas: number;
  /** Connections the proxies handed to another replica because theirs refused (it was dead). */
  failovers: number;
  /** Runs of once-per-period tasks in the processes' logs, and the (schema, task, period)s they covered. */
  periodicRuns: number;
  periodicPeriods: number;
  /** Deliveries recognised as already handled and skipped (processed_events). */
  duplicatesSkipped: number;
}

export function passed(facts: RunFacts, integrity: Integrity): boolean {
  return lostCount(integrity) === 0 && doubledCount(integrity) === 0 && facts.processesExited.length === 0 && facts.neverReady.length === 0;
}

export function markdown(facts: RunFacts, windows: Window[], samples: Sample[], losses: SessionLoss[], exits: ProcessExit[], integrity: Integrity): string[] {
  const lost = lostCount(integrity);
  const doubled = doubledCount(integrity);
  const out: string[] = [
    `Last run: ${facts.date}, \`${facts.command}\`, faults: ${facts.faults}; ${facts.users} virtual users (one step every ~${facts.paceMs} ms each), ` +
      `${facts.calmSeconds === null ? '' : `${facts.calmSeconds} s calm before, between and after the faults, `}${facts.loadSeconds.toFixed(0)} s of load in all. ${facts.environment}`,
    '',
    `**Verdict: ${passed(facts, integrity) ? 'passed' : 'FAILED'}** — events lost **${lost}**, duplicate effects **${doubled}**, processes exited **${facts.processesExited.length}**` +
      (facts.neverReady.length > 0 ? `, not ready again after: **${facts.neverReady.join(', ')}**` : '') +
      `${facts.drainedAfterMs === null ? ' (the outboxes did not drain within the ceiling)' : `; outboxes drained ${(facts.drainedAfterMs / 1000).toFixed(1)} s after the load stopped`}.`,
    '',
    '| fault | outage s (stop → port answers) | every /readyz green after s (from port back) | requests | answered | 5xx | 5xx p50 ms | 5xx max ms | no answer | sessions lost | processes exited |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const w of windows) {
    const f = figures(samples, losses, exits, w);
    const outage = w.fault ? seconds(w.fault.stoppedAt, w.fault.backAt) : w.kill ? seconds(w.kill.killedAt, w.kill.restartedAt) : '–';
    const ready = w.fault ? seconds(w.fault.backAt, w.fault.readyAt) : w.kill ? seconds(w.kill.restartedAt, w.kill.readyAt) : '–';
    out.push(
      `| ${w.label} | ${outage} | ${ready} | ${f.requests} | ${f.answered} | ${f.serverErrors} | ${ms(f.serverErrorP50)} | ${ms(f.serverErrorMax)} | ${f.noAnswer} | ${f.sessionsLost} | ${exitText(f.exited)} |`,
    );
  }
  out.push(
    '',
    'A fault\'s requests are those sent from the stop command until every `/readyz` was green again; sessions lost and processes exited are counted until the next fault.',
  );
  const kills = windows.filter((w) => w.kill);
  if (kills.length > 0) {
    const during = kills.map((w) => figures(samples, losses, exits, w));
    const sent = during.reduce((n, f) => n + f.requests, 0);
    const failed = during.reduce((n, f) => n + f.serverErrors + f.noAnswer, 0);
    out.push(
      '',
      `${facts.replicas} replicas of every process, each HTTP port behind a round-robin proxy that hands a refused connection to the next replica. ` +
        `For a killed replica the outage column is kill → started again, the next one started → every \`/readyz\` green. ` +
        `While replicas were down, **${failed} of ${sent} requests failed** (5xx or no answer: requests on a connection the kill cut); ` +
        `the proxies moved ${facts.failovers} connections to the other replica.`,
      '',
    );
  }
  if (windows.some((w) => w.fault?.spec.name === 'redis')) {
    out.push(
      facts.redisPersists
        ? 'Redis keeps its data on disk here, so its restart should cost no session.'
        : "Sessions lost after the Redis restart are expected on this machine: its Redis runs with `--save \"\" --appendonly no` (infra/scripts/ensure-services.sh), so a restart ends every session; docker-compose's Redis runs with `appendonly yes` and keeps them.",
    );
  }
  for (const w of windows) {
    out.push('', `### ${w.label}`, '');
    if (w.fault) {
      const f = w.fault;
      out.push(
        `Stop command \`${f.spec.stop.join(' ')}\`, started again by \`infra/scripts/ensure-services.sh\`: port refused after ${seconds(f.stoppedAt, f.downAt)} s, ` +
          `answered again after ${seconds(f.stoppedAt, f.backAt)} s, every \`/readyz\` green ${seconds(f.backAt, f.readyAt)} s later.`,
      );
      for (const note of f.notes) out.push('', `- ${note}`);
      for (const r of f.notReady) out.push('', `- ${r.name} /readyz: ${r.detail.replaceAll('|', '\\|')}`);
      out.push('');
    }
    out.push(...actionTable(samples.filter((s) => s.at >= w.from && s.at < w.to)));
  }
  // One window (a dry run) already is the whole run.
  if (windows.length > 1) out.push('', '### Whole run', '', ...actionTable(samples));
  out.push('');
  out.push(
    `After the load: ${integrity.totals.signUps} sign-ups, ${integrity.totals.packageOrdersPaid} package orders and ${integrity.totals.leadOrdersPaid} lead orders paid, ` +
      `${integrity.totals.leadsSold} leads sold, ${integrity.totals.emails} e-mails logged (${integrity.totals.emailsUnattributed} not tied to this load, e.g. the seed's), ${integrity.totals.outboxRows} outbox rows, ` +
      `${integrity.totals.vendorCalls} vendor calls stored and ${integrity.totals.callbackOpportunities} call-back opportunities made from them, ` +
      `${integrity.totals.transfersRouted} live transfers routed and ${integrity.totals.transfersCharged} of them charged.`,
    '',
    '| check | count |',
    '|---|---|',
    ...integrity.unpublished.map((u) => `| events lost: \`${u.schema}.outbox\` rows never published | ${u.count === 0 ? '0' : `**${u.count}**`} |`),
    ...integrity.missing.map((m) => `| events lost: ${m.what} | ${m.count === 0 ? '0' : `**${m.count}**`} |`),
    ...integrity.doubled.map((d) => `| duplicate effects: ${d.what} | ${d.count === 0 ? '0' : `**${d.count}**`} |`),
    `| processes exited | ${facts.processesExited.length === 0 ? '0' : `**${facts.processesExited.length}**`} |`,
    '',
    `Once-per-period tasks (bus retention and the e-mail log's, platform \`bus/periodic-task.ts\`): ${facts.periodicRuns} runs in the processes' logs over ` +
      `${facts.periodicPeriods} (schema, task, period)s. Messages handled twice: none can commit twice (a handler commits with its \`processed_events\` row); ` +
      `${facts.duplicatesSkipped} deliveries came again (a relay's resend or a redelivery after a fault) and were recognised and skipped, and the duplicate-effect checks above count what each handler did.`,
  );
  return out;
}

const BENCHMARKS_MD = path.join(REPO_ROOT, 'docs/benchmarks.md');
const START = '<!-- chaos:faults:start -->';
const END = '<!-- chaos:faults:end -->';
const REPLICAS_START = '<!-- chaos:replicas:start -->';
const REPLICAS_END = '<!-- chaos:replicas:end -->';

const REPLICAS_INTRO = `## Faults with two replicas

**Targets (issue 25): two copies of every process ride out the same server restarts and the
death of either copy** — nothing lost, nothing doubled, each sweep once per period, and the
requests sent while a copy is dead are served by the other (the failures are counted).

Measured by \`make chaos REPLICAS=2\`: the run above with two of every process of
\`infra/services.json\`, each HTTP port behind a round-robin proxy of the run
(\`infra/chaos/round-robin.ts\`), and after PostgreSQL, Redis and RabbitMQ have restarted, one
replica of each process killed with SIGKILL in turn, left dead 5 s and started again
(\`infra/chaos/kills.ts\`).

The section below is rewritten by every such run.`;

/** How the section reads above its markers; written once when the section is missing. */
const INTRO = `## Faults

**Targets: every service rides out a restart of PostgreSQL, Redis and RabbitMQ** with only
seconds of \`503\`s: **no process exits, no event is lost, no effect is doubled** (issue 10).

Measured by \`make chaos\` (\`infra/chaos/run.ts\`): it starts every process of
\`infra/services.json\` as \`make start\` does, but on its own database (\`CHAOS_DATABASE_URL\`,
default \`postgres://postgres@127.0.0.1:5432/warmline_chaos\`, dropped, migrated and seeded at
each run), its own broker namespace and Redis prefix (removed afterwards), its own mail folder
and free ports. A few virtual users drive a steady mix through the gateway: survey sign-ups,
logins, aged-lead purchases and premium package payments with the sandbox card (a payment that
got a 5xx or no answer is confirmed once more, as a buyer would). Then this machine's real
PostgreSQL, Redis and RabbitMQ are stopped one after the other (\`pg_ctlcluster … stop\`,
\`redis-cli shutdown nosave\`, \`rabbitmqctl stop\`) and started again by
\`infra/scripts/ensure-services.sh\`, with a calm period between. After the load the outboxes
are left to drain, then it checks: every outbox row published, every paid lead order's leads
sold, every sign-up's and paid order's e-mails logged by the notifications worker (counted per
sign-up address and order id, \`infra/chaos/emails.ts\`), no lead sold twice, no payment or
sale recorded twice, no e-mail sent twice. It exits non-zero when an event was lost, an effect
doubled or a process exited. \`make chaos FAULTS=none\` runs the load and the checks without
touching the servers. It refuses to restart anything while \`make test\` or \`make start\` uses
the same servers.

The section below is rewritten by every run.`;

/** The one-replica run and the several-replica run each keep their own section. */
export function writeSection(lines: string[], replicas: number): void {
  const start = replicas > 1 ? REPLICAS_START : START;
  const end = replicas > 1 ? REPLICAS_END : END;
  let doc = readFileSync(BENCHMARKS_MD, 'utf8');
  if (!doc.includes(start)) doc = `${doc.replace(/\n*$/, '\n')}\n${replicas > 1 ? REPLICAS_INTRO : INTRO}\n\n${start}\n${end}\n`;
  const at = doc.indexOf(start);
  const stop = doc.indexOf(end);
  if (stop < at) throw new Error(`${BENCHMARKS_MD}: ${end} comes before ${start}`);
  writeFileSync(BENCHMARKS_MD, `${doc.slice(0, at + start.length)}\n${lines.join('\n')}\n${doc.slice(stop)}`);
}

import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

/**
 * Who else uses this machine's PostgreSQL, Redis and RabbitMQ: a `make test` (a vitest
 * process) or a `make start` (its services' main.ts processes and the importer's
 * importer-main.ts, or anything on the gateway's port). Restarting the servers under them would
 * fail their tests or their demo, so the fault run refuses while any is found.
 */
export async function otherUsersOfTheServers(gatewayPort: number): Promise<string[]> {
  const vitest: number[] = [];
  const services: string[] = [];
  const ours = new Set(ancestorsOf(process.pid));
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (ours.has(pid)) continue;
    const argv = commandLine(pid);
    if (argv.length === 0) continue;
    const joined = argv.join(' ');
    if (argv.some((arg) => /(^|\/)vitest(\.m?js)?$/.test(arg) || /node_modules\/vitest\//.test(arg))) {
      vitest.push(pid);
      continue;
    }
    // main.ts, or a second entry point such as the catalog's importer-main.ts.
    const service = /services\/([a-z0-9-]+)\/src\/(?:([a-z0-9-]+)-)?main\.ts/.exec(joined);
    if (service) services.push(`${service[2] ?? service[1]} (pid ${pid})`);
  }
  const found: string[] = [];
  if (vitest.length > 0) found.push(`\`make test\` (vitest, pid ${vitest.join(', ')})`);
  if (services.length > 0) found.push(`\`make start\` or another \`make chaos\` (${services.join(', ')})`);
  if (await answers(gatewayPort)) found.push(`something listening on 127.0.0.1:${gatewayPort}, the gateway's port of \`make start\``);
  return found;
}

/** This process and its parents (make, the shell, npx): never reported as another user. */
function ancestorsOf(pid: number): number[] {
  const chain: number[] = [];
  let current = pid;
  while (current > 1 && !chain.includes(current)) {
    chain.push(current);
    const stat = readText(`/proc/${current}/stat`);
    // The command name in field 2 may hold spaces and parentheses; the parent pid follows the last ')'.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(parent)) break;
    current = parent;
  }
  return chain;
}

function commandLine(pid: number): string[] {
  return readText(`/proc/${pid}/cmdline`).split('\0').filter((a) => a !== '');
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // the process ended meanwhile, or is not ours to read
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Whether a TCP port on 127.0.0.1 accepts a connection (within a second). */
export function answers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Ports this run has handed out: the kernel may offer a released port again before its process listens. */
const handedOut = new Set<number>();

/**
 * A port nothing listens on right now (the kernel's choice), never one this run handed out
 * before: two processes once got the same port and the second exited with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await kernelPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

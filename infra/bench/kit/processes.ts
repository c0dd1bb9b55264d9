/** Starting the services the way `make start` does, and reading what they cost from /proc (Linux). */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, say } from './report.js';

/**
 * A service as its own process (`node --import tsx services/<name>/src/main.ts`), stdout dropped.
 * BENCH_CPU_PROF_DIR: it writes a V8 CPU profile there when it stops (where its CPU went).
 */
export function startService(name: string, env: Record<string, string>, options: { entry?: string; nodeOptions?: string[] } = {}): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(process.env.BENCH_CPU_PROF_DIR, name)}`] : [];
  const entry = options.entry ?? path.join(REPO_ROOT, `services/${name}/src/main.ts`);
  return startCommand(name, process.execPath, [...(options.nodeOptions ?? []), ...profile, '--import', 'tsx', entry], env);
}

/** Any command, its exit reported when it is not a clean one; its stderr shown unless `quiet` (Chromium's chatter). */
export function startCommand(name: string, command: string, args: string[], env: Record<string, string>, options: { quiet?: boolean } = {}): ChildProcess {
  const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', options.quiet ? 'ignore' : 'inherit'] });
  child.on('exit', (code) => {
    if (code !== null && code !== 0) say(`${name} exited with ${code}`);
  });
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Whether `url` answers 2xx now (for waitFor). */
export const answers = (url: string) => async (): Promise<boolean> => (await fetch(url).catch(() => undefined))?.ok === true;

/** CPU seconds (user + system) process `pid` has used so far; NaN when it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    // After the command name: utime and stime are the 12th and 13th fields, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds so far of each PostgreSQL backend serving `database` (its process title names the database). */
export function backendSeconds(database: string): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) seconds.set(Number(entry), cpuSeconds(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** CPU the database's backends used since a `backendSeconds` snapshot (a backend that ended in between is not counted). */
export function backendSecondsSince(database: string, before: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of backendSeconds(database)) total += now - (before.get(pid) ?? 0);
  return total;
}

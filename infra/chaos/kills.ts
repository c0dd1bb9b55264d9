import type { Isolation, Plan, ProcessExit, RunningProcess } from './system';
import { killReplica, sleep, startReplica, waitAllReady } from './system';

/** One replica killed mid-load and started again (`make chaos REPLICAS=2`). */
export interface ReplicaKill {
  name: string;
  killedAt: number;
  /** When it was started again. */
  restartedAt: number;
  /** When every /readyz (its own and the rest) was green again; null at the ceiling. */
  readyAt: number | null;
}

/** How long a killed replica stays dead: long enough that the load meets it gone. */
const DEAD_FOR_MS = 5000;
const READY_CEILING_MS = 120_000;

/**
 * For each process in turn: SIGKILL its first replica (no drain: what a crashed node or an
 * OOM kill does), leave it dead a few seconds while the load goes on against the other, start
 * it again and wait until every /readyz is green, then a calm pause. `processes` is updated in
 * place with the new replica, so the run stops and checks the live one.
 */
export async function killEachService(options: {
  plan: Plan;
  isolation: Isolation;
  processes: RunningProcess[];
  onExit: (exit: ProcessExit, pid: number | undefined) => void;
  /** The pids this run kills itself, so their exits are not counted as crashes. */
  killedOnPurpose: Set<number>;
  calmMs: number;
  say: (line: string) => void;
}): Promise<ReplicaKill[]> {
  const { plan, isolation, processes, say } = options;
  const kills: ReplicaKill[] = [];
  for (const planned of plan.entries) {
    const at = processes.findIndex((p) => p.entry.name === planned.entry.name && p.replica === 0);
    const victim = processes[at];
    if (at < 0 || !victim) continue;
    if (victim.child.pid !== undefined) options.killedOnPurpose.add(victim.child.pid);
    const killedAt = Date.now();
    say(`${victim.name}: SIGKILL`);
    await killReplica(victim);
    await sleep(DEAD_FOR_MS);
    const restartedAt = Date.now();
    const again = startReplica(plan, isolation, planned, 0, options.onExit);
    processes[at] = again;
    const ready = await waitAllReady(processes, READY_CEILING_MS);
    say(`${victim.name}: ${ready.at ? `started again, every /readyz green after ${((ready.at - restartedAt) / 1000).toFixed(1)} s` : 'NOT ready again'}`);
    kills.push({ name: victim.name, killedAt, restartedAt, readyAt: ready.at });
    await sleep(options.calmMs);
  }
  return kills;
}

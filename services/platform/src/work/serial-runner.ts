/**
 * Stored jobs (a lead import, a registry load) run one after another in this process, whenever
 * woken: a wake during a pass asks for one more pass after it, never two at once. A pass runs
 * each unfinished job; while any of them ended, it passes again (more may have come meanwhile).
 * A failure is the job's to report; the next wake (a command, the recovery scan) tries again.
 */
export interface SerialJobs {
  /** The unfinished jobs, oldest first. */
  unfinished(): Promise<string[]>;
  /** Runs one; 'ended' when it finished here (done, failed or cancelled), anything else when not. */
  run(id: string): Promise<string>;
  /** A pass that threw: say so (the jobs stay as they are). */
  failed(err: unknown): void;
}

export class SerialRunner {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly jobs: SerialJobs) {}

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Runs every unfinished job now; resolves when none is left (tests). */
  async drain(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async passes(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        let ended = 0;
        for (const id of await this.jobs.unfinished()) {
          if (this.stopped) return;
          if ((await this.jobs.run(id)) === 'ended') ended += 1;
        }
        if (ended === 0) return;
      }
    } catch (err) {
      this.jobs.failed(err);
    }
  }
}

import { Injectable } from '@nestjs/common';

/** Work that shutting down lets finish for up to `graceMs`, then cancels and waits for. */
export type Drain = (graceMs: number) => Promise<void>;

/**
 * Whether the service is shutting down, and what it waits for meanwhile: the features whose
 * work must not be cut off (running imports; any other long-running work) register a drain here.
 */
@Injectable()
export class ShutdownService {
  private readonly drains: Drain[] = [];
  private began = false;

  get shuttingDown(): boolean {
    return this.began;
  }

  /** Registers work that shutting down waits for (`Drain`). */
  onDrain(drain: Drain): void {
    this.drains.push(drain);
  }

  /** Marks the service as shutting down and runs every drain at once; resolves when all are done. */
  async drain(graceMs: number): Promise<void> {
    this.began = true;
    await Promise.all(this.drains.map((drain) => drain(graceMs)));
  }
}

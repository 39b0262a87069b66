import { Injectable } from '@nestjs/common';

/**
 * One condition of readiness: resolves (with details to show, if any) when it holds, throws an
 * error saying why when it does not. `signal` aborts when the check has taken too long.
 */
export type ReadinessCheck = (options: {
  signal: AbortSignal;
}) => Promise<Record<string, unknown> | void> | Record<string, unknown> | void;

/**
 * What `GET /health/ready` checks, by name, in the order added. The health module adds its own
 * (store, disk space, shutting down); another module adds a check of its own with `add` from its
 * provider's constructor or `onModuleInit`.
 */
@Injectable()
export class ReadinessChecks {
  private readonly checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck): void {
    if (this.checks.has(name)) throw new Error(`A readiness check named ${name} exists already`);
    this.checks.set(name, check);
  }

  entries(): [string, ReadinessCheck][] {
    return [...this.checks];
  }
}

import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WORKSPACE_PREFIX } from './workspace';

/** What the service leaves while it runs, named with its process id: imports' workspaces. */
const LEFTOVER_NAME = new RegExp(`^${WORKSPACE_PREFIX}(\\d+)-[^/]+$`);

/** Whether a process with this id runs (one of another user's counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes from `folder` what runs of the service that died left behind (imports' workspaces):
 * only names the service makes, and only when the process named in them is gone. Anything else
 * in the folder, another running service's included, is left alone.
 */
export async function removeLeftovers(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const owner = LEFTOVER_NAME.exec(name)?.[1];
    if (owner === undefined) continue;
    const pid = Number(owner);
    if (pid === process.pid || running(pid)) continue;
    const leftover = path.join(folder, name);
    await rm(leftover, { recursive: true, force: true });
    removed.push(leftover);
  }
  return removed;
}

/** At start, the leftovers of runs that died in the temporary folder. */
@Injectable()
export class LeftoverCleanup implements OnModuleInit {
  private readonly logger = new Logger(LeftoverCleanup.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const folder = this.config.import.tempDir;
    const removed = await removeLeftovers(folder).catch((error: unknown) => {
      this.logger.warn({ err: error, msg: `Could not remove the leftovers of earlier runs in ${folder}` });
      return [];
    });
    if (removed.length > 0) {
      this.logger.log({ removed, msg: `Removed ${removed.length} leftovers of earlier runs from ${folder}` });
    }
  }
}

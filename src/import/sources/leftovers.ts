import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { WORKSPACE_PREFIX } from './workspace';

/** What the service leaves while it runs, named with its process id: workspaces and memos being written. */
const LEFTOVER_NAMES = [new RegExp(`^${WORKSPACE_PREFIX}(\\d+)-[^/]+$`), /\.(\d+)-[0-9a-f]{8}\.tmp$/];

/** Whether a process with this id runs (one of another user's counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process that left `name`, when the name is one of the service's own. */
function ownerOf(name: string): number | undefined {
  for (const pattern of LEFTOVER_NAMES) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined) return Number(pid);
  }
  return undefined;
}

/**
 * Removes from `folder` what runs of the service that died left behind (an import's workspace,
 * a read memo being written): only names the service makes, and only when the process named in
 * them is gone. Anything else in the folder, another service's included, is left alone.
 */
export async function removeLeftovers(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const pid = ownerOf(name);
    if (pid === undefined || pid === process.pid || running(pid)) continue;
    const leftover = path.join(folder, name);
    await rm(leftover, { recursive: true, force: true });
    removed.push(leftover);
  }
  return removed;
}

/** At start, the leftovers of runs that died, in the temporary folder and the read memos' folder. */
@Injectable()
export class LeftoverCleanup implements OnModuleInit {
  private readonly logger = new Logger(LeftoverCleanup.name);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const { tempDir, readMemoDir } = this.config.import;
    for (const folder of new Set([tempDir, readMemoDir])) {
      const removed = await removeLeftovers(folder).catch((error: unknown) => {
        this.logger.warn({ err: error, msg: `Could not remove the leftovers of earlier runs in ${folder}` });
        return [];
      });
      if (removed.length > 0) {
        this.logger.log({
          removed,
          msg: `Removed ${removed.length} leftovers of earlier runs from ${folder}`,
        });
      }
    }
  }
}

import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import path from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ShutdownService } from '../shutdown/shutdown.service';
import { freeBytes } from './free-disk';
import { HEALTHY, UNHEALTHY } from './health.openapi';
import { ReadinessChecks } from './readiness-checks';
import { StoreHealth } from './store-health';

/** A check that has not answered by then counts as down, so that probes get an answer. */
const CHECK_TIMEOUT_MS = 3000;

/** The folders the service writes to: the SQLite store's (if it is one) and import workspaces'. */
function writtenFolders(config: AppConfig): string[] {
  const folders = [config.import.tempDir];
  if (config.graphUrl.startsWith('sqlite:')) {
    folders.unshift(path.dirname(path.resolve(config.graphUrl.slice('sqlite:'.length))));
  }
  return folders;
}

/**
 * Health for probes, no auth: `/health/live` (the process answers), `/health/ready` (every
 * readiness check holds: the store answers, disk space, not shutting down; 503 otherwise) and
 * `/health` (the store answers), as before.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly store: StoreHealth,
    private readonly readiness: ReadinessChecks,
    shutdown: ShutdownService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    readiness.add('graph', async () => {
      const problems = await this.store.problems();
      if (problems.length > 0) throw new Error(problems.join('; '));
    });
    readiness.add('disk', () => this.checkDisk(writtenFolders(config), config.minFreeDiskBytes));
    readiness.add('shutdown', () => {
      if (shutdown.shuttingDown) throw new Error('The service is shutting down');
    });
  }

  // Each described here rather than by Terminus, whose description has examples of checks this has not.
  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Whether the store serves (200) or not (503, with the problems)' })
  @ApiResponse({ status: 200, description: 'The store answers', schema: HEALTHY })
  @ApiResponse({
    status: 503,
    description: 'The store does not answer, is damaged or read-only',
    schema: UNHEALTHY,
  })
  check(): Promise<HealthCheckResult> {
    return this.health.check([
      async () => {
        const graph = this.indicators.check('graph');
        const problems = await this.store.problems();
        return problems.length === 0 ? graph.up() : graph.down({ problems });
      },
    ]);
  }

  @Get('live')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness: the process answers (200 while it does, until the app closes)' })
  @ApiResponse({ status: 200, description: 'The process answers', schema: HEALTHY })
  @ApiResponse({ status: 503, description: 'The app is closing (shutting_down)', schema: UNHEALTHY })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    summary:
      'Readiness: the store answers, there is disk space to write, and the service is not shutting down',
  })
  @ApiResponse({ status: 200, description: 'Ready to serve', schema: HEALTHY })
  @ApiResponse({ status: 503, description: 'Not ready: the failing checks say why', schema: UNHEALTHY })
  ready(): Promise<HealthCheckResult> {
    return this.health.check(
      this.readiness.entries().map(
        ([name, check]) =>
          () =>
            this.indicators.check(name).attempt(check).withTimeout(CHECK_TIMEOUT_MS),
      ),
    );
  }

  private async checkDisk(folders: string[], minFreeBytes: number): Promise<Record<string, unknown>> {
    const free = Object.fromEntries(
      await Promise.all(folders.map(async (folder) => [folder, await freeBytes(folder)] as const)),
    );
    const short = Object.entries(free).filter(([, bytes]) => bytes < minFreeBytes);
    if (short.length > 0) {
      throw new Error(
        `Free disk space under MIN_FREE_DISK_BYTES (${minFreeBytes}): ` +
          short.map(([folder, bytes]) => `${folder} has ${bytes} bytes`).join(', '),
      );
    }
    return { minFreeBytes, freeBytes: free };
  }
}

import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { StoreHealth } from './store-health';

/**
 * `GET /health`, no auth: 200 while the graph store serves, 503 with the reasons while it does
 * not (not answering, damaged, read-only).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly store: StoreHealth,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([
      async () => {
        const graph = this.indicators.check('graph');
        const problems = await this.store.problems();
        return problems.length === 0 ? graph.up() : graph.down({ problems });
      },
    ]);
  }
}

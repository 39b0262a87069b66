import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { GraphStore } from '../graph/graph-store';

/** A store that has not answered by then counts as down, so that probes get an answer. */
const STORE_PING_TIMEOUT_MS = 3000;

/** `GET /health`, no auth: 200 while the graph store answers, 503 otherwise. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly store: GraphStore,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([
      () =>
        this.indicators
          .check('graph')
          .attempt(() => this.store.ping())
          .withTimeout(STORE_PING_TIMEOUT_MS),
    ]);
  }
}

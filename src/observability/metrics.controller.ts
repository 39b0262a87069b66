import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireRole } from '../auth/bearer-auth.guard';
import { gatherFromWorkers } from '../cluster/gather';
import { METRICS_TOPIC, MetricsService, MetricsSnapshot } from './metrics.service';

@ApiTags('operations')
@ApiBearerAuth()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @RequireRole('ops')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Request and import counters in the Prometheus text format (role ops)' })
  @ApiOkResponse({ description: 'Prometheus text exposition', schema: { type: 'string' } })
  async render(): Promise<string> {
    // Every process serving HTTP counts its own requests: the answer is their sum.
    const snapshots = await gatherFromWorkers<MetricsSnapshot>(METRICS_TOPIC, () => this.metrics.snapshot());
    return this.metrics.render(snapshots);
  }
}

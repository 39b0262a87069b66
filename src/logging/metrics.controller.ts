import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiNestErrors } from '../openapi/openapi';
import { RequireRole } from '../auth/bearer-auth.guard';
import { gatherFromWorkers } from '../cluster/gather';
import { METRICS_TOPIC, MetricsService, MetricsSnapshot } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @RequireRole('ops')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiOperation({ summary: 'Request and import counters in the Prometheus text format (role ops)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition', schema: { type: 'string' } })
  @ApiNestErrors([
    [401, 'No valid bearer token'],
    [403, 'The token is not of role ops'],
  ])
  async render(): Promise<string> {
    // Every process serving HTTP counts its own requests: the answer is their sum.
    const snapshots = await gatherFromWorkers<MetricsSnapshot>(METRICS_TOPIC, () => this.metrics.snapshot());
    return this.metrics.render(snapshots);
  }
}

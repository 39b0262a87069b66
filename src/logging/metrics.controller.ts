import { Controller, Get, Header } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireRole } from '../auth/bearer-auth.guard';
import { MetricsService } from './metrics.service';

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
  render(): string {
    return this.metrics.render();
  }
}

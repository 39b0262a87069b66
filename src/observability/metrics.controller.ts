import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequireRole } from '../auth/bearer-auth.guard';
import { ApiNestErrors } from '../openapi/openapi';
import { MetricsService } from './metrics.service';

@ApiTags('operations')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @RequireRole('ops')
  @ApiOperation({
    summary:
      'Metrics in the Prometheus text format (role ops): request and import durations, imports running, ' +
      'the write queue, memory, event-loop lag, GC; summed over the HTTP workers',
  })
  @ApiOkResponse({
    description: 'Prometheus text exposition',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiNestErrors([
    [401, 'No valid bearer token'],
    [403, 'The token is not of role ops'],
  ])
  async render(@Res() reply: FastifyReply): Promise<void> {
    const text = await this.metrics.render();
    void reply.header('Content-Type', this.metrics.contentType).send(text);
  }
}

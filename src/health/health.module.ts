import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessChecks } from './readiness-checks';
import { StoreHealth } from './store-health';

/**
 * Health for probes and orchestrators. Terminus reports a failed check through Nest's `Logger`,
 * i.e. the application's pino logger. Other modules import this one to add readiness checks
 * (`ReadinessChecks`).
 */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [ReadinessChecks, StoreHealth],
  exports: [ReadinessChecks, StoreHealth],
})
export class HealthModule {}

import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { StoreHealth } from './store-health';

/** Terminus reports a failed check through Nest's `Logger`, i.e. the application's pino logger. */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [StoreHealth],
  exports: [StoreHealth],
})
export class HealthModule {}

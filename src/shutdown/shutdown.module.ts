import { Global, Module } from '@nestjs/common';
import { ShutdownService } from './shutdown.service';

/** Global: any feature may register work for shutting down to wait for, and readiness reads it. */
@Global()
@Module({
  providers: [ShutdownService],
  exports: [ShutdownService],
})
export class ShutdownModule {}

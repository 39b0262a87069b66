import { Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_CONFIG, loadConfig } from './app-config';

/** Reads `.env` (when present) into the environment once, then serves the typed `AppConfig`. */
@Global()
@Module({
  imports: [ConfigModule.forRoot({ cache: true })],
  providers: [{ provide: APP_CONFIG, useFactory: () => loadConfig(process.env) }],
  exports: [APP_CONFIG],
})
export class AppConfigModule {}

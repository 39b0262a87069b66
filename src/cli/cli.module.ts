import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AppConfigModule } from '../config/config.module';
import { GraphModule } from '../graph/graph.module';

/** The part of the application the command line needs: configuration, the store, users, tokens. */
@Module({
  imports: [AppConfigModule, GraphModule, AuthModule],
})
export class CliModule {}

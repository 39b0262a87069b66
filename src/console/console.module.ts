import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

/** The operators' web page for import jobs and logs, over their JSON endpoints. */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}

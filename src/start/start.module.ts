import { Module } from '@nestjs/common';
import { IndexController } from './index.controller';

/** What a newcomer meets first: the root's index (`GET /`). */
@Module({ controllers: [IndexController] })
export class StartModule {}

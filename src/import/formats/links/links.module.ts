import { Module } from '@nestjs/common';
import { LinksReader } from './links.reader';

/** The link table import format (`POST /import/links`). */
@Module({ providers: [LinksReader] })
export class LinksModule {}

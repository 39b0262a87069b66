import { Module } from '@nestjs/common';
import { LINKS_FORMAT, LinksReader } from './links.reader';

/** The link table import format (`POST /import/links`). */
@Module({ providers: [LinksReader] })
export class LinksModule {
  static readonly format = LINKS_FORMAT;
}

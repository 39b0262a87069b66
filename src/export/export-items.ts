import { HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { StoredItem } from '../graph/graph-store';
import { Bundle } from '../items/bundle';
import { ItemType } from '../items/item-types';
import { isPortalType } from '../portal/portal-types';
import { PortalService } from '../portal/portal.service';
import { chosenDescription, exportLanguage } from './languages';

export const XML_MEDIA_TYPE = 'application/xml; charset=utf-8';

/** An export of one item: its id, its `lang` parameter and the request it answers. */
export interface ExportRequest {
  id: string;
  lang: unknown;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** How an export of one item's description is written (EAG, EAC-CPF). */
export interface DescribedExport {
  type: ItemType;
  /** The type in words, for the 404 of an item without a description. */
  name: string;
  /** The export's path for an item id. */
  pathOf: (id: string) => string;
  write: (item: StoredItem, description: Bundle) => string;
}

/**
 * The item an export is of, found as the portal finds items: a moved item answers 301 to the same
 * export of its new id (with the request's query), a deleted one 410, an unknown one 404, and so
 * does an item of another type than the export writes.
 */
@Injectable()
export class ExportItems {
  private readonly base: string;

  constructor(
    private readonly portal: PortalService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.base = config.publicUrl.replace(/\/+$/, '');
  }

  /**
   * The item `id` of `type` (of any type the portal shows when undefined), or undefined when a
   * 301 has been sent; `pathOf` gives the export's path for an id.
   */
  async find(
    id: string,
    type: ItemType | undefined,
    pathOf: (id: string) => string,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<StoredItem | undefined> {
    const found = await this.portal.storedItem(id, (newId) => this.base + pathOf(newId));
    if ('movedTo' in found) {
      const query = req.originalUrl.indexOf('?');
      const location = found.movedTo + (query === -1 ? '' : req.originalUrl.slice(query));
      void reply.code(HttpStatus.MOVED_PERMANENTLY).header('Location', location).send();
      return undefined;
    }
    if (type === undefined ? !isPortalType(found.bundle.type) : found.bundle.type !== type) {
      throw new NotFoundException(`No ${type ?? 'item'} with id "${id}"`);
    }
    return found;
  }

  /** Sends the XML `how` writes of the item's description in `lang` (else English, else the first). */
  async sendDescribed({ id, lang, req, reply }: ExportRequest, how: DescribedExport): Promise<void> {
    const language = exportLanguage(lang);
    const item = await this.find(id, how.type, how.pathOf, req, reply);
    if (item === undefined) return;
    const description = chosenDescription(item.bundle, language);
    if (description === undefined) throw new NotFoundException(`${how.name} "${id}" has no description`);
    void reply.code(HttpStatus.OK).header('Content-Type', XML_MEDIA_TYPE).send(how.write(item, description));
  }
}

/** `encodeURIComponent` for a path segment. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

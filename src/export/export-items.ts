import { HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { StoredItem } from '../graph/graph-store';
import { ItemType } from '../items/item-types';
import { PortalService } from '../portal/portal.service';

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
   * The item `id` of `type`, or undefined when a 301 has been sent; `pathOf` gives the export's
   * path for an id.
   */
  async find(
    id: string,
    type: ItemType,
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
    if (found.bundle.type !== type) throw new NotFoundException(`No ${type} with id "${id}"`);
    return found;
  }
}

/** `encodeURIComponent` for a path segment. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

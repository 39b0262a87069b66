import { Injectable } from '@nestjs/common';
import { GraphReader, StoredItem } from '../../../graph/graph-store';
import { ItemType } from '../../../items/item-types';
import {
  FormatDeclaration,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportSource,
  ReadEvent,
} from '../format-reader';
import { inBatches } from '../../parsing/tabular/batches';
import { rowRejection } from '../../parsing/tabular/row-rejection';
import { readTableRows } from '../../parsing/tabular/table-rows';
import {
  accessPointIds,
  LinkSpec,
  linkId,
  linkWithBodies,
  newLinkWrite,
  unlinkableReason,
} from '../../building/link-builder';
import { LinkRow, linkRow } from './link-rows';

/** Rows checked against the store together. */
const BATCH_SIZE = 500;

/** What the store says about the items a batch of rows names. */
interface StoreFacts {
  types: Map<string, ItemType>;
  /** The ends of the rows that name an access point, with their descriptions. */
  ends: Map<string, StoredItem>;
  /** The links the rows made before. */
  links: Map<string, StoredItem>;
}

function unique(ids: Iterable<string>): string[] {
  return [...new Set(ids)];
}

async function storeFacts(specs: readonly LinkSpec[], store: GraphReader): Promise<StoreFacts> {
  const types = await store.getTypes(unique(specs.flatMap((spec) => spec.ends)));
  const withAccessPoint = specs.filter((spec) => spec.accessPoint !== undefined);
  const ends = await store.getItems(unique(withAccessPoint.flatMap((spec) => spec.ends)));
  const links = await store.getItems(specs.map(linkId));
  return { types, ends, links };
}

/** What is wrong with a link whose row is well formed: a missing end or a foreign access point. */
function storeProblem(spec: LinkSpec, facts: StoreFacts): string | undefined {
  const roles = ['source', 'target'];
  for (const [index, end] of spec.ends.entries()) {
    const reason = unlinkableReason(end, facts.types);
    if (reason !== undefined) return `${roles[index]} item ${end} ${reason}`;
  }
  const { accessPoint } = spec;
  if (accessPoint === undefined) return undefined;
  const onEnds = spec.ends.some((end) => {
    const item = facts.ends.get(end);
    return item !== undefined && accessPointIds(item.bundle).has(accessPoint);
  });
  return onEnds
    ? undefined
    : `access point ${accessPoint} (column 3) is not an access point of ${spec.ends.join(' or ')}`;
}

export const LINKS_FORMAT: FormatDeclaration = {
  name: 'links',
  summary:
    'a table of (source, target, access point, type, field, description): links between existing items',
  input: 'raw',
  parameters: [],
};

/**
 * `POST /import/links`: links between existing items from a table of rows (source, target,
 * access point, type, field, description), as the reference's `LinkImporter.importLinks`. A row
 * imported again finds the link it made (see `linkId`) and leaves it unchanged.
 */
@Injectable()
@ImportFormat()
export class LinksReader implements FormatReader {
  readonly name = LINKS_FORMAT.name;
  readonly classNames = ['links'];
  readonly scopeTypes: readonly ItemType[] = [];
  readonly input = LINKS_FORMAT.input;

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    for await (const rows of inBatches(readTableRows(source), BATCH_SIZE)) {
      const linkRows = rows.map(linkRow);
      const specs = linkRows.flatMap((row) => ('spec' in row ? [row.spec] : []));
      const facts = await storeFacts(specs, context.store);
      for (const row of linkRows) yield this.event(row, facts, source.tag, context.user);
    }
  }

  private event(row: LinkRow, facts: StoreFacts, tag: string, user: string): ReadEvent {
    if ('problem' in row) return rowRejection({ table: 'Link', tag, row: row.row }, row.problem);
    const { spec } = row;
    const problem = storeProblem(spec, facts);
    if (problem !== undefined) return rowRejection({ table: 'Link', tag, row: row.row }, problem);
    const bodies = spec.accessPoint === undefined ? [] : [spec.accessPoint];
    const existing = facts.links.get(linkId(spec));
    const write =
      existing === undefined ? newLinkWrite(spec, bodies, user) : linkWithBodies(existing, bodies);
    return { kind: 'item', tag, write };
  }
}

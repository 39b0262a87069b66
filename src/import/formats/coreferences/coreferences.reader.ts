import { Injectable } from '@nestjs/common';
import { GraphReader, StoredItem } from '../../../graph/graph-store';
import { ItemType } from '../../../items/item-types';
import {
  FormatDeclaration,
  FormatReader,
  ImportContext,
  ImportFormat,
  ImportInputError,
  ImportSource,
  ReadEvent,
} from '../format-reader';
import { linkWithBodies, newLinkWrite, unlinkableReason } from '../../building/link-builder';
import { rowRejection } from '../../parsing/tabular/row-rejection';
import { readTableRows } from '../../parsing/tabular/table-rows';
import {
  Coreference,
  CoreferenceGroup,
  coreferenceGroups,
  CoreferenceRow,
  coreferenceRow,
  linkForGroup,
} from './coreference-links';

/** The reference's type for links made from coreferences. */
const COREFERENCE_LINK_TYPE = 'associative';

async function rowsOf(source: ImportSource): Promise<CoreferenceRow[]> {
  const rows: CoreferenceRow[] = [];
  for await (const row of readTableRows(source)) rows.push(coreferenceRow(row));
  return rows;
}

/** The links to each of `itemIds`, by item. */
async function linksTo(itemIds: readonly string[], store: GraphReader): Promise<Map<string, StoredItem[]>> {
  const linkIds = new Map<string, string[]>();
  for (const itemId of itemIds) linkIds.set(itemId, await store.incoming(itemId, 'hasLinkTarget'));
  const links = await store.getItems([...new Set([...linkIds.values()].flat())]);
  return new Map(
    [...linkIds].map(([itemId, ids]) => [itemId, ids.flatMap((id) => links.get(id) ?? [])] as const),
  );
}

export const COREFERENCES_FORMAT: FormatDeclaration = {
  name: 'coreferences',
  summary: "a table of (access point label, target id): the scope's access points linked to their targets",
  input: 'raw',
  parameters: [],
};

/**
 * `POST /import/coreferences`: links the items of a scope to the items their access points name,
 * from a table of (access point label, target id) rows, as the reference's
 * `LinkImporter.importCoreferences`. Every access point labelled exactly so on an item inside
 * the scope is linked to the target: it becomes a body of an existing link between the two items
 * (updated, as the reference counts it, without `allow-update`), or of a new associative link
 * (created). Ids are listed under the label, as the reference lists them.
 */
@Injectable()
@ImportFormat()
export class CoreferencesReader implements FormatReader {
  readonly name = COREFERENCES_FORMAT.name;
  readonly classNames = ['coreferences'];
  readonly scopeTypes: readonly ItemType[] = [
    'Country',
    'Repository',
    'DocumentaryUnit',
    'AuthoritativeSet',
    'CvocVocabulary',
  ];
  readonly input = COREFERENCES_FORMAT.input;
  readonly scopeRequired = true;
  readonly updatesExisting = true;

  async *read(source: ImportSource, context: ImportContext): AsyncIterable<ReadEvent> {
    const scope = context.scope;
    if (scope === undefined) {
      throw new ImportInputError('A coreference import needs a scope: give its id as the scope parameter');
    }
    const { coreferences, rejections } = await this.checkRows(
      await rowsOf(source),
      source.tag,
      context.store,
    );
    yield* rejections;
    const labels = [...new Set(coreferences.map((coreference) => coreference.label))];
    const matches = await context.store.findAccessPoints(scope.bundle.id, labels);
    const groups = coreferenceGroups(coreferences, matches);
    const links = await linksTo([...new Set(groups.map((group) => group.itemId))], context.store);
    for (const group of groups) yield this.linkEvent(group, links.get(group.itemId) ?? [], context.user);
  }

  /** The rows that are well formed and name a target that can be linked; the others rejected. */
  private async checkRows(
    rows: readonly CoreferenceRow[],
    tag: string,
    store: GraphReader,
  ): Promise<{ coreferences: Coreference[]; rejections: ReadEvent[] }> {
    const wellFormed = rows.filter((row): row is Coreference => !('problem' in row));
    const types = await store.getTypes([...new Set(wellFormed.map((row) => row.target))]);
    const coreferences: Coreference[] = [];
    const rejections: ReadEvent[] = [];
    for (const row of rows) {
      if ('problem' in row) {
        rejections.push(rowRejection({ table: 'Coreference', tag, row: row.row }, row.problem));
        continue;
      }
      const reason = unlinkableReason(row.target, types);
      if (reason === undefined) coreferences.push(row);
      else
        rejections.push(
          rowRejection({ table: 'Coreference', tag, row: row.row }, `target item ${row.target} ${reason}`),
        );
    }
    return { coreferences, rejections };
  }

  private linkEvent(group: CoreferenceGroup, links: readonly StoredItem[], user: string): ReadEvent {
    const existing = linkForGroup(group, links);
    const write =
      existing === undefined
        ? newLinkWrite(
            {
              ends: [group.itemId, group.target],
              accessPoint: group.accessPoints[0],
              type: COREFERENCE_LINK_TYPE,
            },
            group.accessPoints,
            user,
          )
        : linkWithBodies(existing, group.accessPoints);
    return { kind: 'item', tag: group.label, write };
  }
}

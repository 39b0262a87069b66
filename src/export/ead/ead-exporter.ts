import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Injectable, NotFoundException } from '@nestjs/common';
import { GraphStore, StoredItem } from '../../graph/graph-store';
import { Bundle } from '../../items/bundle';
import { LANGUAGE_CODE, NAME } from '../../items/ontology';
import { EadVersion, unitElement } from './ead-fields';
import { DOCUMENT_END, documentStart } from './ead-header';
import { levelAttributes, unitContent } from './ead-unit';
import { ChildReader, Placed, unitsBelow } from './unit-walk';
import { escapeText, markup, startTag } from './xml-tree';

export interface EadWriteOptions {
  /** Whether the document starts with an XML declaration (default true); without, to embed it. */
  declaration?: boolean;
}

/** Units read from the store at a time while a finding aid is written. */
const BATCH = 200;
/** Text gathered before it is handed on. */
const CHUNK_CHARACTERS = 64 * 1024;
const UNIT_TYPE = 'DocumentaryUnit';

/** `walk`'s units `size` at a time, after those of `taken` (already taken from it). */
async function* batches(
  walk: AsyncGenerator<Placed>,
  size: number,
  taken: Placed[],
): AsyncGenerator<Placed[]> {
  let batch = taken;
  for await (const placed of walk) {
    batch.push(placed);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The description a unit is written with: the one in `language`, else one in its parent's
 * language (so that a finding aid stays in one language where it can), else its first.
 */
function chooseDescription(unit: Bundle, language: string, parentLanguage?: string): Bundle | undefined {
  const descriptions = [...(unit.relations.describes ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
  const inLanguage = (code: string | undefined) =>
    code === undefined
      ? undefined
      : descriptions.find((description) => description.data[LANGUAGE_CODE] === code);
  return inLanguage(language) ?? inLanguage(parentLanguage) ?? descriptions[0];
}

/** An open unit element, closed when a unit at its depth or above comes, or at the end. */
interface OpenUnit {
  name: string;
  depth: number;
  /** Whether it opened a `dsc` for its components (the `archdesc` only). */
  dsc: boolean;
  language: string | undefined;
}

/** Indentation of a unit's element: `archdesc` inside `ead`, components inside its `dsc`. */
function indentOf(depth: number): number {
  return depth === 0 ? 1 : depth + 2;
}

/**
 * Writes a documentary unit and everything below it as one EAD 2002 or EAD3 finding aid, as the
 * import reads them back (docs/exports.md): the text is produced while the subtree is walked a
 * level at a time (`unitsBelow`), a batch of units read at a time, so a finding aid of any size is
 * written in bounded memory.
 */
@Injectable()
export class EadExporter {
  constructor(private readonly store: GraphStore) {}

  /** Writes the finding aid to `out`, waiting for it to drain; does not end it. */
  async write(
    unitId: string,
    version: EadVersion,
    language: string,
    out: Writable,
    options: EadWriteOptions = {},
  ): Promise<void> {
    for await (const chunk of this.chunks(unitId, version, language, options)) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
  }

  /**
   * The finding aid of `unitId` in `version`, descriptions in `language` (ISO 639-2/T) where the
   * units have one, as chunks of text. Rejects with 404 when `unitId` is no documentary unit.
   */
  async *chunks(
    unitId: string,
    version: EadVersion,
    language: string,
    options: EadWriteOptions = {},
  ): AsyncGenerator<string> {
    const { root, holder } = await this.store.read(async (tx) => {
      const found = (await tx.getItems([unitId])).get(unitId);
      if (found?.bundle.type !== UNIT_TYPE)
        throw new NotFoundException(`No documentary unit with id "${unitId}"`);
      const holderRef = (await tx.ancestors([unitId])).get(unitId)?.find((ref) => ref.type === 'Repository');
      const holderItem =
        holderRef === undefined ? undefined : (await tx.getItems([holderRef.id])).get(holderRef.id);
      return { root: found, holder: holderItem };
    });
    const readChildren: ChildReader = (parentIds, after, limit) =>
      this.store.read((tx) => tx.children(parentIds, { after, limit }));
    const walk = unitsBelow(unitId, readChildren);
    const first = await walk.next();
    const rootDescription = chooseDescription(root.bundle, language);
    const holderDescription = holder === undefined ? undefined : chooseDescription(holder.bundle, language);
    const holderName = holderDescription?.data[NAME];
    let text = documentStart(
      version,
      {
        unitId,
        description: rootDescription,
        holderName: typeof holderName === 'string' ? holderName : undefined,
        language,
        now: new Date(),
      },
      options.declaration !== false,
    );
    const open: OpenUnit[] = [];
    const close = (depth: number): void => {
      while (open.length > 0 && open[open.length - 1].depth >= depth) {
        const unit = open.pop() as OpenUnit;
        const indent = '  '.repeat(indentOf(unit.depth));
        if (unit.dsc) text += `${indent}  </dsc>\n`;
        text += `${indent}</${unit.name}>\n`;
      }
    };
    const openUnit = (placed: Placed, item: StoredItem, hasChildren = false): void => {
      close(placed.depth);
      const parentLanguage = open[open.length - 1]?.language;
      const description =
        placed.depth === 0 ? rootDescription : chooseDescription(item.bundle, language, parentLanguage);
      const name = unitElement(placed.depth);
      const content = unitContent(item.bundle, description, version, name);
      const dsc = placed.depth === 0 && hasChildren;
      const dscContent = dsc ? content.children.find((child) => child.name === 'dsc') : undefined;
      const indent = indentOf(placed.depth);
      text += `${'  '.repeat(indent)}${startTag(name, levelAttributes(description, placed.depth === 0 ? 'otherlevel' : undefined))}`;
      if (content.text !== undefined) text += escapeText(content.text);
      text += '\n';
      for (const child of content.children) if (child !== dscContent) text += markup(child, indent + 1);
      if (dsc) {
        text += `${'  '.repeat(indent + 1)}<dsc>\n`;
        for (const child of dscContent?.children ?? []) text += markup(child, indent + 2);
      }
      const code = description?.data[LANGUAGE_CODE];
      open.push({
        name,
        depth: placed.depth,
        dsc,
        language: typeof code === 'string' ? code : parentLanguage,
      });
    };

    openUnit({ id: unitId, depth: 0 }, root, first.done !== true);
    // A unit that is gone by the time its batch is read is left out, with what lies below it.
    let skipBelow: number | undefined;
    for await (const batch of batches(walk, BATCH, first.done === true ? [] : [first.value])) {
      const items = await this.store.read((tx) => tx.getItems(batch.map((placed) => placed.id)));
      for (const placed of batch) {
        if (skipBelow !== undefined && placed.depth > skipBelow) continue;
        skipBelow = undefined;
        const item = items.get(placed.id);
        if (item?.bundle.type !== UNIT_TYPE) {
          skipBelow = placed.depth;
          continue;
        }
        openUnit(placed, item);
        if (text.length >= CHUNK_CHARACTERS) {
          yield text;
          text = '';
        }
      }
    }
    close(0);
    yield text + DOCUMENT_END;
  }
}

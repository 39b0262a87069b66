import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Injectable, NotFoundException } from '@nestjs/common';
import { GraphStore, StoredItem, SubtreeEntry } from '../../graph/graph-store';
import { tombstoneRepository } from '../../graph/records/tombstone-repository';
import { Bundle } from '../../items/bundle';
import { ItemType } from '../../items/item-types';
import { LANGUAGE_CODE, NAME } from '../../items/ontology';
import { missingItem } from '../../portal/portal.service';
import { EadVersion, unitElement } from './ead-fields';
import { DOCUMENT_END, documentStart } from './ead-header';
import { levelAttributes, unitContent } from './ead-unit';
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

/** A unit of the subtree, in the order it is written (depth first, siblings by identifier). */
interface Placed {
  id: string;
  depth: number;
  children: number;
}

const byIdentifier = new Intl.Collator('en', { numeric: true });

/** The subtree below `rootId`, depth first, each unit's children in the order of their identifiers. */
function depthFirst(rootId: string, entries: readonly SubtreeEntry[]): Placed[] {
  const children = new Map<string, SubtreeEntry[]>();
  for (const entry of entries) {
    if (entry.type !== UNIT_TYPE) continue;
    const siblings = children.get(entry.parentId);
    if (siblings === undefined) children.set(entry.parentId, [entry]);
    else siblings.push(entry);
  }
  for (const siblings of children.values()) {
    siblings.sort((a, b) => byIdentifier.compare(a.localId, b.localId) || (a.id < b.id ? -1 : 1));
  }
  const order: Placed[] = [];
  const stack: { id: string; depth: number }[] = [{ id: rootId, depth: 0 }];
  while (stack.length > 0) {
    const { id, depth } = stack.pop() as { id: string; depth: number };
    const below = children.get(id) ?? [];
    order.push({ id, depth, children: below.length });
    for (let index = below.length - 1; index >= 0; index--)
      stack.push({ id: below[index].id, depth: depth + 1 });
  }
  return order;
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
 * import reads them back (docs/exports.md): the text is produced while the subtree is walked, a
 * batch of units read at a time, so a finding aid of any size is written in flat memory.
 */
@Injectable()
export class EadExporter {
  constructor(private readonly store: GraphStore) {}

  /**
   * Undefined when `id` is an item of `type`; `{movedTo}` (the URL `urlOf` gives for its new id)
   * when an import moved it; throws 410 Gone for one an import deleted, 404 otherwise: the
   * portal's answers.
   */
  async locate(
    id: string,
    type: ItemType,
    urlOf: (newId: string) => string,
  ): Promise<{ movedTo: string } | undefined> {
    return this.store.read(async (tx) => {
      const found = (await tx.getTypes([id])).get(id);
      if (found === type) return undefined;
      if (found !== undefined) throw new NotFoundException(`Item "${id}" is a ${found}, not a ${type}`);
      return missingItem(await tombstoneRepository.get(tx, id), id, urlOf);
    });
  }

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
    const { root, holder, entries } = await this.store.read(async (tx) => {
      const found = (await tx.getItems([unitId])).get(unitId);
      if (found?.bundle.type !== UNIT_TYPE)
        throw new NotFoundException(`No documentary unit with id "${unitId}"`);
      const holderRef = (await tx.ancestors([unitId])).get(unitId)?.find((ref) => ref.type === 'Repository');
      const holderItem =
        holderRef === undefined ? undefined : (await tx.getItems([holderRef.id])).get(holderRef.id);
      return { root: found, holder: holderItem, entries: await tx.subtree(unitId) };
    });
    const order = depthFirst(unitId, entries);
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
    const openUnit = (placed: Placed, item: StoredItem): void => {
      close(placed.depth);
      const parentLanguage = open[open.length - 1]?.language;
      const description =
        placed.depth === 0 ? rootDescription : chooseDescription(item.bundle, language, parentLanguage);
      const name = unitElement(placed.depth);
      const content = unitContent(item.bundle, description, version, name);
      const dsc = placed.depth === 0 && placed.children > 0;
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

    openUnit(order[0], root);
    // A unit that is gone by the time its batch is read is left out, with what lies below it.
    let skipBelow: number | undefined;
    for (let start = 1; start < order.length; start += BATCH) {
      const batch = order.slice(start, start + BATCH);
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

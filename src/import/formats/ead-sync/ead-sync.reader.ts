import { Injectable } from '@nestjs/common';
import { GraphWriter, ItemGraphReader } from '../../../graph/graph-store';
import { tombstoneRepository } from '../../../graph/records/tombstone-repository';
import { ItemType } from '../../../items/item-types';
import { Tombstone, TombstonePlace } from '../../../items/tombstones';
import { EadReader, MISSING_UNITID_PARAMETER } from '../ead/ead.reader';
import {
  FinishResult,
  FormatDeclaration,
  FormatReader,
  ImportContext,
  ImportEvent,
  ImportFormat,
  ImportInputError,
  ImportOutcome,
  ImportSource,
} from '../format-reader';
import { moveLinks } from './moved-links';
import { keptUnits, planSync, SyncPlan } from './sync-plan';
import { DUPLICATE_UNITID_PARAMETER } from '../../building/sibling-ids';
import { fondsEntry, syncParams, syncScopeUnits } from './sync-scope';

function scopeIdOf(context: ImportContext): string {
  if (context.scope === undefined) {
    throw new ImportInputError(
      'An EAD sync needs a repository or a unit: give its id as the scope parameter',
    );
  }
  return context.scope.bundle.id;
}

/** The repository and the country of the items below an item: those above it, or it itself. */
async function placeOf(reader: ItemGraphReader, itemId: string): Promise<TombstonePlace> {
  const type = (await reader.getTypes([itemId])).get(itemId);
  if (type === undefined) return {};
  const chain = [{ id: itemId, type }, ...((await reader.ancestors([itemId])).get(itemId) ?? [])];
  const repository = chain.find((item) => item.type === 'Repository')?.id;
  const country = chain.find((item) => item.type === 'Country')?.id;
  return {
    ...(repository === undefined ? {} : { repository }),
    ...(country === undefined ? {} : { country }),
  };
}

/**
 * What the portal answers for the units a sync removed: 410 Gone, or 301 to a moved unit's new id;
 * with where they were (`place`), for the harvests that list them as deleted.
 */
function tombstones(plan: SyncPlan, event: string | undefined, place: TombstonePlace): Tombstone[] {
  const removed = new Date().toISOString();
  const common = { removed, ...place, ...(event === undefined ? {} : { event }) };
  return [
    ...plan.deleted.map((itemId) => ({ itemId, ...common })),
    ...Object.entries(plan.moved).map(([itemId, movedTo]) => ({ itemId, movedTo, ...common })),
  ];
}

export const EAD_SYNC_FORMAT: FormatDeclaration = {
  name: 'ead-sync',
  summary:
    "EAD imported as ead does, then the scope's units the incoming data no longer has deleted, and moved units' links carried over",
  input: 'documents',
  parameters: [
    MISSING_UNITID_PARAMETER,
    DUPLICATE_UNITID_PARAMETER,
    {
      name: 'fonds',
      description: 'a unit inside the scope; only its subtree is synchronised (default: the whole scope)',
    },
    {
      name: 'ex',
      description: 'ids of units the sync leaves alone, with their descendants (repeatable)',
      repeatable: true,
    },
  ],
};

/**
 * `POST /import/ead-sync`, the reference's `EadSync`: imports EAD with the EAD reader, then, in
 * the same transaction, deletes the units of the repository (or of the `fonds`) that the incoming
 * data no longer has, except the `ex` units, and moves the links of units that changed parent.
 * Answers the reference's `SyncLog`: `{log, created, deleted, moved}`.
 */
@Injectable()
@ImportFormat()
export class EadSyncReader implements FormatReader {
  readonly name = EAD_SYNC_FORMAT.name;
  /**
   * The reference has no sync handler or importer: there, as here, `handler` and `importer`
   * choose how the EAD is read, and the endpoint still synchronises.
   */
  readonly classNames: readonly string[];
  readonly scopeTypes: readonly ItemType[];
  readonly input = EAD_SYNC_FORMAT.input;
  readonly scopeRequired = true;

  constructor(private readonly ead: EadReader) {
    this.classNames = [this.name, ...ead.classNames];
    this.scopeTypes = ead.scopeTypes;
  }

  read(source: ImportSource, context: ImportContext): AsyncIterable<ImportEvent> {
    return this.readChecked(source, context);
  }

  async finish(store: GraphWriter, outcome: ImportOutcome, context: ImportContext): Promise<FinishResult> {
    const { fonds, excluded } = syncParams(context.params.query);
    const units = await syncScopeUnits(store, scopeIdOf(context), fonds);
    const plan = planSync({
      units,
      produced: outcome.produced,
      created: outcome.created,
      kept: keptUnits(units, excluded),
    });
    const links = await moveLinks(store, plan.moved);
    const removed = [...plan.deleted, ...Object.keys(plan.moved)];
    await store.deleteItems(removed);
    const place = await placeOf(store, scopeIdOf(context));
    await tombstoneRepository.put(store, tombstones(plan, context.event, place));
    return { touched: [...removed, ...links], answer: (log) => ({ log, ...plan }) };
  }

  /** Refuses a bad `fonds` before reading a document. */
  private async *readChecked(source: ImportSource, context: ImportContext): AsyncIterable<ImportEvent> {
    const { fonds } = syncParams(context.params.query);
    if (fonds !== undefined) await fondsEntry(context.store, fonds, scopeIdOf(context));
    yield* this.ead.read(source, context);
  }
}

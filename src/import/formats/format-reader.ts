import { DiscoveryService } from '@nestjs/core';
import { GraphReader, GraphWriter, StoredItem } from '../../graph/graph-store';
import { ItemType } from '../../items/item-types';
import { ImportLogDocument } from '../../import-logs/import-log.types';
import { Ids } from '../../import-logs/walked-ids';
import { ImportEvent, ImportSource, ReadLimits } from './read-events';

/**
 * The plug-in interface between the import run and a format. A format is a folder under
 * `import/formats/` with a Nest module providing a class that implements `FormatReader` and is
 * decorated with `@ImportFormat()`; the module carries the format's `FormatDeclaration` and is
 * listed in `formats.module.ts`. The import run finds readers through the decorator, and the
 * controller's OpenAPI description and the command line read the declarations: none names a format.
 */

/** A query parameter a format reads beyond the common ones. */
export interface FormatParameter {
  readonly name: string;
  /** What it does, its values and its default, as the OpenAPI document and the CLI's help say. */
  readonly description: string;
  /** Whether it may be given several times, making a list. */
  readonly repeatable?: boolean;
}

/** What a format says of itself before any reader exists (the OpenAPI document, the CLI's help). */
export interface FormatDeclaration {
  /** The endpoint name: `POST /import/<name>`; its reader's `name`. */
  readonly name: string;
  /** What it reads into what, in one line. */
  readonly summary: string;
  /** Its reader's `input`: whether the body is documents or one source as it is. */
  readonly input: FormatReader['input'];
  /** The parameters it reads beyond the common ones, in the order to document them. */
  readonly parameters: readonly FormatParameter[];
}

/** A format's Nest module: it provides the reader and carries the declaration (`formats.module.ts`). */
export interface FormatModule {
  new (...args: never[]): unknown;
  readonly format: FormatDeclaration;
}

/** The request's parameters as a reader sees them, already validated. */
export interface ImportParams {
  tolerant: boolean;
  allowUpdate: boolean;
  /** Default description language, ISO 639-2/T. */
  lang: string;
  tag: string;
  useSourceId: boolean;
  /** A `path=field` mapping that replaces the format's default one (`properties` parameter). */
  properties?: string;
  /** Every query parameter as given, for format-specific ones (`format`, `baseURI`, `fonds`, …). */
  query: Record<string, string | string[]>;
  /** The configured bounds on what the documents may cause. */
  limits: ReadLimits;
}

export interface ImportContext {
  params: ImportParams;
  /** The scope item (repository, country, set, vocabulary, unit), when the request named one. */
  scope?: StoredItem & {
    /** Its ancestors along the child edges, parent first, root last. */
    ancestors: { id: string; type: ItemType }[];
    /** The `identifier`s from the root down to the scope itself: the prefix of new items' ids. */
    identifiers: string[];
  };
  /** The acting user's id. */
  user: string;
  /** The id of the import's log when the import commits; absent in a dry run. */
  event?: string;
  /** Read access inside the import's own transaction (sees its earlier writes). */
  store: GraphReader;
  /** Aborts when the import is cancelled: a reader that waits for other work stops waiting. */
  signal?: AbortSignal;
}

export interface FormatReader {
  /** The endpoint name: `POST /import/<name>`. */
  readonly name: string;
  /** `handler`/`importer` values that select this reader (short names and reference class names). */
  readonly classNames: readonly string[];
  /** The item types the `scope` parameter may name; empty when the format takes no scope. */
  readonly scopeTypes: readonly ItemType[];
  /**
   * `documents`: the run turns the body into sources (one XML document, a path list, a URL map or
   * an archive); `raw`: the body is one source whatever its media type (SKOS, CSV, tables).
   */
  readonly input: 'documents' | 'raw';
  /** A request without `scope` is refused (400) when true; otherwise the reader gets none. */
  readonly scopeRequired?: boolean;
  /**
   * True for a format whose purpose is to update existing items (coreferences add access points
   * to existing links): its updates need no `allow-update`, as in the reference, whose endpoint
   * for it has no such parameter.
   */
  readonly updatesExisting?: boolean;
  /**
   * How a re-imported item's descriptions meet the stored ones. `merge` (default, the reference's
   * EAD rule): an incoming description replaces the stored one of its language (and source file
   * with `use-source-id`), the others stay. `replace`: the incoming item replaces the stored one
   * whole, as the reference's SKOS and EAC importers do.
   */
  readonly descriptionUpdate?: 'merge' | 'replace';
  /**
   * For `documents` readers: the media types that make the body one document. Default
   * `application/xml`, `text/xml` and any `+xml` type; `text/plain` (a path list) and
   * `application/json` (a URL map) keep their meaning whatever is listed here.
   */
  readonly documentTypes?: readonly string[];
  /**
   * Reads one source. Called once per source, in order, inside the import's transaction. Items
   * produced by earlier sources are written before the next source is read.
   */
  read(source: ImportSource, context: ImportContext): AsyncIterable<ImportEvent>;
  /**
   * Optional last step inside the same transaction, after every produced item is written (the
   * sync's deletions and moves). It may change the answer's shape and adds to the stored log.
   */
  finish?(store: GraphWriter, outcome: ImportOutcome, context: ImportContext): Promise<FinishResult>;
}

/** What `finish` adds to the import's result. */
export interface FinishResult {
  /** Ids the step changed besides the items the run wrote (deleted, moved): kept in the stored log. */
  touched?: readonly string[];
  /**
   * Builds the HTTP answer from the import log (whose `event` is then known); stored with the log
   * too. Without it the answer is the import log itself.
   */
  answer?(log: ImportLogDocument<Ids>): Record<string, unknown>;
}

/**
 * What the run did, handed to `finish`: views of the run's result for each id rather than copies
 * (a set's `size` counts its ids afresh), so that a step that asks about a few ids costs little.
 */
export interface ImportOutcome {
  /** Every id produced, whatever happened to it. */
  produced: ReadonlySet<string>;
  created: ReadonlySet<string>;
  updated: ReadonlySet<string>;
  unchanged: ReadonlySet<string>;
}

/** Marks a provider as a format reader, so that the import run's registry discovers it. */
export const ImportFormat = DiscoveryService.createDecorator<void>();

export type { ImportLogDocument };
export { ImportInputError } from './read-events';
export type {
  ImportEvent,
  ImportSource,
  ItemDeferred,
  ItemProduced,
  ItemRejected,
  ReadEvent,
  ReadLimits,
} from './read-events';

import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { FormatReader, ImportFormat } from './formats/format-reader';
import { badRequest, notFound } from './import-errors';

/** The format readers of the application: every provider decorated with `@ImportFormat()`. */
@Injectable()
export class FormatRegistry implements OnApplicationBootstrap {
  private readonly readers = new Map<string, FormatReader>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: ImportFormat.KEY })) {
      const reader = wrapper.instance as FormatReader | undefined;
      if (reader === undefined) continue;
      if (this.readers.has(reader.name)) {
        throw new Error(`Two import formats are named "${reader.name}"`);
      }
      this.readers.set(reader.name, reader);
    }
  }

  get names(): string[] {
    return [...this.readers.keys()].sort();
  }

  /** The endpoint's reader; 404 when no format has that name. */
  endpoint(name: string): FormatReader {
    const reader = this.readers.get(name);
    if (reader === undefined) throw notFound(`No import format is named "${name}"`);
    return reader;
  }

  /**
   * The reader that reads for `endpoint` given the `handler` and `importer` parameters: the
   * endpoint's own when neither is given or it answers to the name, otherwise the reader that does
   * (as in the reference, where these class names choose the parser) — never one with a `finish`
   * step of its own, such as the sync, which only its own endpoint runs. Unknown names are the
   * reference's `Class not found: X`.
   */
  select(endpoint: FormatReader, names: { handler?: string; importer?: string }): FormatReader {
    const chosen = [names.handler, names.importer]
      .filter((name): name is string => name !== undefined)
      .map((name) => this.byClassName(endpoint, name));
    const distinct = new Set(chosen);
    if (distinct.size > 1) {
      throw badRequest(`handler "${names.handler}" and importer "${names.importer}" name different formats`);
    }
    return chosen[0] ?? endpoint;
  }

  private byClassName(endpoint: FormatReader, name: string): FormatReader {
    const others = [...this.readers.values()].filter((reader) => reader.finish === undefined);
    const candidates = [endpoint, ...others];
    const reader = candidates.find((candidate) => candidate.classNames.includes(name));
    if (reader === undefined) throw badRequest(`Class not found: ${name}`);
    return reader;
  }
}

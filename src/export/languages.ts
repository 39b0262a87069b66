import { BadRequestException } from '@nestjs/common';
import { Bundle } from '../items/bundle';
import { ISO_639_1_TO_2T } from '../items/languages-data';
import { toLanguageCode } from '../items/languages';
import { LANGUAGE_CODE } from '../items/ontology';

const TO_ISO_639_1: ReadonlyMap<string, string> = new Map(
  Object.entries(ISO_639_1_TO_2T).map(([short, long]) => [long, short]),
);

/** The ISO 639-1 code of an ISO 639-2/T one where there is one (`deu` → `de`), else the code itself. */
export function iso6391Code(code: string): string {
  return TO_ISO_639_1.get(code) ?? code;
}

const DEFAULT_LANGUAGE = 'eng';

/**
 * The language an export's `lang` parameter asks for, as on import (ISO 639-1 or 639-2, surrounding
 * spaces ignored): `eng` when absent; 400 for anything that is no language code.
 */
export function exportLanguage(lang: unknown): string {
  if (lang === undefined || lang === '') return DEFAULT_LANGUAGE;
  // A parameter given twice arrives as a list: one language is asked for.
  if (typeof lang !== 'string')
    throw new BadRequestException('lang is given more than once: give one language code');
  const code = toLanguageCode(lang.trim());
  if (code === undefined) {
    throw new BadRequestException(
      `lang=${JSON.stringify(lang)} is not an ISO 639 language code (such as eng or en)`,
    );
  }
  return code;
}

/**
 * The description an export writes, as the reference's `getBestDescription`: the one in the
 * language asked for, else (where the reference takes whichever comes first) the English one, else
 * the first by id, so that the answer does not depend on the store's order.
 */
export function chosenDescription(item: Bundle, language: string): Bundle | undefined {
  const descriptions = [...(item.relations.describes ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1));
  const inLanguage = (code: string) =>
    descriptions.find((description) => description.data[LANGUAGE_CODE] === code);
  return inLanguage(language) ?? inLanguage(DEFAULT_LANGUAGE) ?? descriptions[0];
}

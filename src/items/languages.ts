import {
  ISO_639_1_TO_2T,
  ISO_639_2B_TO_2T,
  ISO_639_2T_CODES,
  WITHDRAWN_ISO_639_1_TO_2T,
} from './languages-data';

const TERMINOLOGIC_CODES: ReadonlyMap<string, string> = new Map([
  ...ISO_639_2T_CODES.map((code): [string, string] => [code, code]),
  ...Object.entries(ISO_639_2B_TO_2T),
  ...Object.entries(ISO_639_1_TO_2T),
  ...Object.entries(WITHDRAWN_ISO_639_1_TO_2T),
]);

/**
 * The ISO 639-2/T code (`deu`) of a language given by its ISO 639-1 (`de`), ISO 639-2/B (`ger`)
 * or ISO 639-2/T code, in any case; undefined for anything else.
 */
export function toLanguageCode(code: string): string | undefined {
  return TERMINOLOGIC_CODES.get(code.toLowerCase());
}

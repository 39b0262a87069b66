import { ImportContext, ImportInputError } from './format-reader';

type Query = ImportContext['params']['query'];

/**
 * A format-specific query parameter given at most once; empty counts as not given. White space is
 * kept: a tab is a valid CSV field separator.
 */
export function singleParameter(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new ImportInputError(`Parameter "${name}" may be given only once`);
  return value === '' ? undefined : value;
}

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

/** A format-specific query parameter that names one of `choices`; the first when not given. */
export function choiceParameter<T extends string>(query: Query, name: string, choices: readonly T[]): T {
  const given = singleParameter(query, name);
  if (given === undefined) return choices[0];
  const choice = choices.find((candidate) => candidate === given);
  if (choice === undefined) {
    throw new ImportInputError(`Parameter "${name}" must be one of ${choices.join(', ')}, got "${given}"`);
  }
  return choice;
}

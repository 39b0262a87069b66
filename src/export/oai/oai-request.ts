import { OaiError } from './oai-errors';

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'GetRecord',
  'ListIdentifiers',
  'ListRecords',
] as const;
export type Verb = (typeof VERBS)[number];

/** Each verb's arguments (§4): those it needs, those it may have, and whether a token may stand alone. */
const ARGUMENTS: Record<Verb, { required: string[]; optional: string[]; resumable: boolean }> = {
  Identify: { required: [], optional: [], resumable: false },
  ListMetadataFormats: { required: [], optional: ['identifier'], resumable: false },
  ListSets: { required: [], optional: [], resumable: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [], resumable: false },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
};

/** What the schema lets a metadata prefix and a set spec be (`metadataPrefixType`, `setSpecType`). */
const PREFIX = /^[A-Za-z0-9\-_.!~*'()]+$/;
export const SET_SPEC = /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/;

/** A request's arguments, checked against its verb; `resumptionToken` stands alone when given. */
export interface OaiRequest {
  verb: Verb;
  identifier?: string;
  metadataPrefix?: string;
  from?: string;
  until?: string;
  set?: string;
  resumptionToken?: string;
}

/**
 * The request its arguments (`name=value` pairs, query or form) make: badVerb for a verb missing,
 * repeated or unknown; badArgument for an argument repeated, unknown to the verb, missing, or of a
 * form the protocol's schema does not allow. The values of `from`, `until` and a token are checked
 * where they are used.
 */
export function parseRequest(pairs: readonly (readonly [string, string])[]): OaiRequest {
  const verbs = pairs.filter(([name]) => name === 'verb').map(([, value]) => value);
  if (verbs.length === 0) throw new OaiError('badVerb', 'No verb: give one of ' + VERBS.join(', '));
  if (verbs.length > 1) throw new OaiError('badVerb', 'The verb is given more than once');
  const verb = VERBS.find((known) => known === verbs[0]);
  if (verb === undefined) {
    throw new OaiError(
      'badVerb',
      `${JSON.stringify(verbs[0])} is not a verb: give one of ${VERBS.join(', ')}`,
    );
  }
  const allowed = ARGUMENTS[verb];
  const values = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (name === 'verb') continue;
    const known = [
      ...allowed.required,
      ...allowed.optional,
      ...(allowed.resumable ? ['resumptionToken'] : []),
    ];
    if (!known.includes(name))
      throw new OaiError('badArgument', `${verb} takes no argument ${JSON.stringify(name)}`);
    if (values.has(name)) throw new OaiError('badArgument', `The argument ${name} is given more than once`);
    values.set(name, value);
  }
  const request: OaiRequest = { verb, ...Object.fromEntries(values) };
  if (request.resumptionToken !== undefined) {
    if (values.size > 1) {
      throw new OaiError(
        'badArgument',
        'resumptionToken is an exclusive argument: give it with the verb alone',
      );
    }
    return request;
  }
  for (const name of allowed.required) {
    if (!values.has(name)) throw new OaiError('badArgument', `${verb} needs the argument ${name}`);
  }
  if (request.metadataPrefix !== undefined && !PREFIX.test(request.metadataPrefix)) {
    throw new OaiError(
      'badArgument',
      `metadataPrefix=${JSON.stringify(request.metadataPrefix)} is not a prefix`,
    );
  }
  if (request.set !== undefined && !SET_SPEC.test(request.set)) {
    throw new OaiError('badArgument', `set=${JSON.stringify(request.set)} is not a set spec`);
  }
  if (request.identifier === '') throw new OaiError('badArgument', 'The identifier is empty');
  return request;
}

/** The pairs of a query string or a form body, in order, repeated names kept. */
export function argumentPairs(encoded: string): [string, string][] {
  return [...new URLSearchParams(encoded)];
}

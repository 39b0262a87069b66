import { OAI_DC_NAMESPACE, OAI_DC_SCHEMA, DC_NAMESPACE } from '../dc/dublin-core';
import {
  Attributes,
  escapeText,
  startTag,
  textElement,
  XML_DECLARATION,
  XSI_NAMESPACE,
} from '../dc/xml-markup';
import { datestamp } from './oai-dates';
import { OaiError } from './oai-errors';
import { OaiRequest } from './oai-request';
import { OaiSet } from './oai-sets';

/** The markup of OAI-PMH answers (the protocol's schema, `OAI-PMH.xsd`), as text. */

export const OAI_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/';
const OAI_SCHEMA = 'http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd';

/** The arguments a `request` element repeats, in the protocol's order. */
const ECHOED = ['verb', 'identifier', 'metadataPrefix', 'from', 'until', 'set', 'resumptionToken'] as const;

/**
 * The start of an answer, to the opening of its verb's element: the time it is answered at, and
 * the request with its arguments (none when `request` is undefined: after badVerb or badArgument).
 */
export function answerStart(now: Date, baseUrl: string, request: OaiRequest | undefined): string {
  const root = startTag('OAI-PMH', [
    ['xmlns', OAI_NAMESPACE],
    ['xmlns:xsi', XSI_NAMESPACE],
    ['xsi:schemaLocation', `${OAI_NAMESPACE} ${OAI_SCHEMA}`],
  ]);
  const echoed: Attributes = ECHOED.flatMap((name) => {
    const value = request?.[name];
    return value === undefined ? [] : [[name, value] as const];
  });
  return `${XML_DECLARATION}${root}${textElement('responseDate', datestamp(now))}${textElement('request', baseUrl, echoed)}`;
}

export const ANSWER_END = '</OAI-PMH>\n';

/** A whole error answer. */
export function errorAnswer(
  now: Date,
  baseUrl: string,
  request: OaiRequest | undefined,
  error: OaiError,
): string {
  const echoed = error.echoesArguments ? request : undefined;
  return `${answerStart(now, baseUrl, echoed)}${textElement('error', error.message, [['code', error.code]])}${ANSWER_END}`;
}

/** A record's header: a unit's id, its datestamp and its sets, or a deletion's. */
export function header(
  identifier: string,
  time: string,
  setSpecs: readonly string[],
  deleted: boolean,
): string {
  return (
    startTag('header', deleted ? [['status', 'deleted']] : []) +
    textElement('identifier', identifier) +
    textElement('datestamp', datestamp(time)) +
    setSpecs.map((spec) => textElement('setSpec', spec)).join('') +
    '</header>'
  );
}

/** Simple Dublin Core of one sentence, as the reference describes its sets. */
function dcDescription(text: string): string {
  return (
    startTag('oai_dc:dc', [
      ['xmlns:oai_dc', OAI_DC_NAMESPACE],
      ['xmlns:dc', DC_NAMESPACE],
      ['xsi:schemaLocation', `${OAI_DC_NAMESPACE} ${OAI_DC_SCHEMA}`],
    ]) +
    textElement('dc:description', text) +
    '</oai_dc:dc>'
  );
}

export function setElement(set: OaiSet): string {
  return `<set>${textElement('setSpec', set.spec)}${textElement('setName', set.name)}<setDescription>${dcDescription(set.description)}</setDescription></set>`;
}

/**
 * The token that ends a page: the next one's, or an empty one ending a list that had earlier
 * pages (§3.5); `answered` is how many entries the earlier pages gave.
 */
export function resumptionToken(answered: number, token?: { value: string; expires: Date }): string {
  const attributes: Attributes = token
    ? [
        ['expirationDate', datestamp(token.expires)],
        ['cursor', String(answered)],
      ]
    : [['cursor', String(answered)]];
  return `${startTag('resumptionToken', attributes)}${token ? escapeText(token.value) : ''}</resumptionToken>`;
}

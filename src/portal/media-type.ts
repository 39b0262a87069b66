import { JSONAPI_MEDIA_TYPE } from './jsonapi';

interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  parameters: string[];
}

function parseMediaType(value: string): MediaType {
  const [essence, ...parameters] = value.split(';').map((part) => part.trim());
  return { essence: essence.toLowerCase(), parameters: parameters.filter((parameter) => parameter !== '') };
}

/** RFC 9110: in an `Accept` range, `q` ends the media type parameters (it and what follows are weights). */
function withoutWeight(range: MediaType): MediaType {
  const weight = range.parameters.findIndex((parameter) => /^q\s*=/i.test(parameter));
  return weight === -1 ? range : { ...range, parameters: range.parameters.slice(0, weight) };
}

function acceptRanges(accept: string | string[] | undefined): MediaType[] {
  const values = accept === undefined ? [] : Array.isArray(accept) ? accept : [accept];
  return values.flatMap((value) => value.split(',')).map((range) => withoutWeight(parseMediaType(range)));
}

/**
 * JSON:API 1.0: a client that names the JSON:API media type in `Accept` only with parameters
 * cannot be served (406). One plain JSON:API range among others, or none at all, is fine.
 */
export function acceptsJsonApi(accept: string | string[] | undefined): boolean {
  // What JSON:API clients send, on every request: decided without parsing.
  if (accept === JSONAPI_MEDIA_TYPE) return true;
  const jsonApiRanges = acceptRanges(accept).filter((range) => range.essence === JSONAPI_MEDIA_TYPE);
  return jsonApiRanges.length === 0 || jsonApiRanges.some((range) => range.parameters.length === 0);
}

/** JSON:API 1.0: a request `Content-Type` of the JSON:API media type with parameters is refused (415). */
export function isParameterisedJsonApi(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const mediaType = parseMediaType(contentType);
  return mediaType.essence === JSONAPI_MEDIA_TYPE && mediaType.parameters.length > 0;
}

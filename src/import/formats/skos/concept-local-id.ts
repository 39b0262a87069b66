/** The `baseURI` and `suffix` parameters of a SKOS import. */
export interface UriAffixes {
  baseURI?: string;
  suffix?: string;
}

/** Java's `URI` getters decode percent-escapes; a malformed escape is kept as written. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withoutAffixes(uri: string, { baseURI, suffix }: UriAffixes): string | undefined {
  if (baseURI === undefined || baseURI === '' || !uri.startsWith(baseURI)) return undefined;
  const rest = uri.slice(baseURI.length);
  return suffix !== undefined && suffix !== '' && rest.endsWith(suffix)
    ? rest.slice(0, -suffix.length)
    : rest;
}

/**
 * The last non-empty path segment and the query: `http://sws.geonames.org/125605/` gives `125605`
 * (the reference would give an empty id for such URIs unless `baseURI` and `suffix` strip them).
 */
function lastSegment(url: URL): string {
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  return decoded(segments.at(-1) ?? '') + decoded(url.search.replace(/^\?/, ''));
}

/**
 * A concept's local identifier from its URI, as the reference's `JenaSkosImporter.getId`: the URI
 * without `baseURI` (and `suffix`, when it also ends with it) when it starts with `baseURI`; else
 * its fragment; else its last path segment. Empty when nothing is left.
 */
export function conceptLocalId(uri: string, affixes: UriAffixes): string {
  const stripped = withoutAffixes(uri, affixes);
  if (stripped !== undefined) return stripped;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return decoded(uri.split('#').at(-1) ?? '');
  }
  return url.hash !== '' ? decoded(url.hash.slice(1)) : lastSegment(url);
}

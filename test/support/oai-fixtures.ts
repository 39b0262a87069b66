import { Bundle } from '../../src/items/bundle';
import { itemHash } from '../../src/items/change-detection';
import { countryBundle } from '../../src/items/countries';
import { ImportTestApp } from './import-client';

/** What the OAI-PMH and Dublin Core tests import: finding aids written for them, into repositories in countries. */

/** A unit of a finding aid: its local id, title and child units. */
export interface UnitSpec {
  localId: string;
  title?: string;
  children?: UnitSpec[];
}

export function unit(localId: string, ...children: UnitSpec[]): UnitSpec {
  return { localId, children };
}

function unitContent({ localId, title, children = [] }: UnitSpec): string {
  return (
    `<did><unitid>${localId}</unitid><unittitle>${title ?? `Unit ${localId}`}</unittitle>` +
    '<unitdate normal="1940/1945">1940-1945</unitdate></did>' +
    `<scopecontent><p>Papers of unit ${localId}</p></scopecontent>` +
    '<controlaccess><subject>Deportation</subject><geogname>Amsterdam</geogname></controlaccess>' +
    (children.length === 0
      ? ''
      : `<dsc>${children.map((child) => `<c>${unitContent(child)}</c>`).join('')}</dsc>`)
  );
}

/** An EAD 2002 finding aid in English for one fonds. */
export function findingAid(fonds: UnitSpec): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ead xmlns="urn:isbn:1-931666-22-9">
  <eadheader><eadid>${fonds.localId}</eadid>
    <filedesc><titlestmt><titleproper>Fonds ${fonds.localId}</titleproper></titlestmt></filedesc>
    <profiledesc><langusage><language langcode="eng">English</language></langusage></profiledesc>
  </eadheader>
  <archdesc level="fonds">${unitContent(fonds)}</archdesc>
</ead>`;
}

/**
 * A country and a repository in it, named `City Archives <identifier>`: the repository's id is
 * `<country>-<identifier>`, as an EAG import makes it, and the units imported into it start so.
 */
export async function addRepository(t: ImportTestApp, country: string, identifier: string): Promise<string> {
  const id = `${country}-${identifier}`;
  const repository: Bundle = {
    id,
    type: 'Repository',
    data: { identifier },
    relations: {
      describes: [
        {
          id: `${id}.eng`,
          type: 'RepositoryDescription',
          data: { languageCode: 'eng', name: `City Archives ${identifier}` },
          relations: {},
        },
      ],
    },
  };
  const countryItem = countryBundle(country);
  await t.store.write((tx) =>
    tx.putItems([
      { bundle: countryItem, hash: itemHash(countryItem) },
      { bundle: repository, hash: itemHash(repository), edges: { hasCountry: [country] } },
    ]),
  );
  return id;
}

/** Imports (`ead`) or synchronises (`ead-sync`) a finding aid into a repository; resolves to the answer. */
export async function importInto(
  t: ImportTestApp,
  format: 'ead' | 'ead-sync',
  scope: string,
  body: string | Buffer,
  query: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const response = await t
    .post(format, { scope, commit: 'true', ...query })
    .set('Content-Type', 'application/xml')
    .send(body);
  if (response.status !== 201) {
    throw new Error(`POST /import/${format}?scope=${scope} answered ${response.status}: ${response.text}`);
  }
  return response.body as Record<string, unknown>;
}

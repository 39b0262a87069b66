import { ItemWrite } from '../../src/graph/graph-store';
import { Bundle, Props } from '../../src/items/bundle';
import { itemHash } from '../../src/items/change-detection';
import { countryBundle } from '../../src/items/countries';
import { descriptionId, joinPath } from '../../src/items/identifiers';

/**
 * Repositories and documentary units shaped as the importers store them (the reference graph:
 * descriptions `describes` their item, an address hangs off a repository description), for
 * loading portal test and benchmark data straight through the store.
 */

function definedOnly(fields: object): Props {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function write(bundle: Bundle, edges: ItemWrite['edges']): ItemWrite {
  return { bundle, hash: itemHash(bundle), edges };
}

/** An ISO country as the service creates it, with country report fields as `/import/csv` adds them. */
export function countryWrite(code: string, reportFields: Props): ItemWrite {
  const bundle = countryBundle(code);
  return write({ ...bundle, data: { ...bundle.data, ...reportFields } }, {});
}

export interface RepositoryFields {
  name: string;
  /** Address properties as the EAG importer stores them (`street`, `municipality`, …). */
  address?: Props;
}

/** A repository with an English description, in country `countryCode`. */
export function repositoryWrite(countryCode: string, localId: string, fields: RepositoryFields): ItemWrite {
  const id = joinPath([countryCode, localId]);
  const descId = descriptionId(id, 'eng');
  const bundle: Bundle = {
    id,
    type: 'Repository',
    data: { identifier: localId },
    relations: {
      describes: [
        {
          id: descId,
          type: 'RepositoryDescription',
          data: { name: fields.name, languageCode: 'eng' },
          relations:
            fields.address === undefined
              ? {}
              : {
                  hasAddress: [
                    { id: `${descId}-address`, type: 'Address', data: fields.address, relations: {} },
                  ],
                },
        },
      ],
    },
  };
  return write(bundle, { hasCountry: [countryCode], hasPermissionScope: [countryCode] });
}

export interface UnitDescriptionFields {
  languageCode: string;
  name: string;
  identifier?: string;
  parallelFormsOfName?: string[];
  extentAndMedium?: string;
  acquisition?: string;
  scopeAndContent?: string;
}

export interface UnitFields {
  descriptions: UnitDescriptionFields[];
  otherIdentifiers?: string[];
}

/**
 * A documentary unit at `path`: the country code, the repository's local id, then the local ids
 * of its ancestors and its own. Held by the repository at the top level, a child of its parent
 * below it.
 */
export function unitWrite(path: readonly string[], fields: UnitFields): ItemWrite {
  if (path.length < 3)
    throw new Error(`a unit path needs country, repository and unit ids: ${path.join('/')}`);
  const id = joinPath(path);
  const parentId = joinPath(path.slice(0, -1));
  const data: Props = { identifier: path[path.length - 1] };
  if (fields.otherIdentifiers !== undefined) data.otherIdentifiers = fields.otherIdentifiers;
  const bundle: Bundle = {
    id,
    type: 'DocumentaryUnit',
    data,
    relations: {
      describes: fields.descriptions.map((description) => ({
        id: descriptionId(id, description.languageCode, description.identifier),
        type: 'DocumentaryUnitDescription',
        data: definedOnly(description),
        relations: {},
      })),
    },
  };
  const parentEdge = path.length === 3 ? { heldBy: [parentId] } : { childOf: [parentId] };
  return write(bundle, { ...parentEdge, hasPermissionScope: [parentId] });
}

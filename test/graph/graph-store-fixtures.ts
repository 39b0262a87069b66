import { ItemWrite } from '../../src/graph/graph-store';
import { Bundle, Props } from '../../src/items/bundle';

/** Items and helpers of the `GraphStore` contract's tests. */

interface DescriptionSpec {
  lang: string;
  name: string;
  text?: string;
  accessPoints?: string[];
}

interface UnitSpec {
  parent?: { heldBy: string } | { childOf: string };
  otherIdentifiers?: string[];
  descriptions?: DescriptionSpec[];
  edges?: ItemWrite['edges'];
}

function node(id: string, type: Bundle['type'], data: Props, relations: Bundle['relations'] = {}): Bundle {
  return { id, type, data, relations };
}

function description(itemId: string, spec: DescriptionSpec): Bundle {
  const id = `${itemId}.${spec.lang}`;
  const data: Props = { name: spec.name, languageCode: spec.lang };
  if (spec.text !== undefined) data.scopeAndContent = spec.text;
  const accessPoints = (spec.accessPoints ?? []).map((name, index) =>
    node(`${id}.ap${index}`, 'AccessPoint', { name, type: 'place' }),
  );
  return node(id, 'DocumentaryUnitDescription', data, accessPoints.length ? { relatesTo: accessPoints } : {});
}

/** A unit whose local id is `local-<id>`; its item-level edges come from `parent` and `edges`. */
export function unit(id: string, spec: UnitSpec = {}): ItemWrite {
  const data: Props = { identifier: `local-${id}` };
  if (spec.otherIdentifiers) data.otherIdentifiers = spec.otherIdentifiers;
  const descriptions = (spec.descriptions ?? []).map((d) => description(id, d));
  const edges: ItemWrite['edges'] = { ...spec.edges };
  if (spec.parent && 'heldBy' in spec.parent) edges.heldBy = [spec.parent.heldBy];
  if (spec.parent && 'childOf' in spec.parent) edges.childOf = [spec.parent.childOf];
  return {
    bundle: node(id, 'DocumentaryUnit', data, descriptions.length ? { describes: descriptions } : {}),
    hash: `hash-${id}`,
    edges,
  };
}

export function unitWithEverything(id: string, repositoryId: string): ItemWrite {
  const dates = (descriptionId: string) => [
    node(`${descriptionId}.date0`, 'DatePeriod', {
      startDate: '1939-09-01',
      endDate: '1945-05-08',
      type: 'creation',
    }),
  ];
  const descriptionOf = (lang: string, name: string) => {
    const descriptionId = `${id}.${lang}`;
    return node(
      descriptionId,
      'DocumentaryUnitDescription',
      { name, languageCode: lang, scopeAndContent: `Scope ${lang}`, parallelFormsOfName: [`${name} (alt)`] },
      {
        hasDate: dates(descriptionId),
        relatesTo: [
          node(`${descriptionId}.ap0`, 'AccessPoint', { name: 'Warsaw', type: 'place' }),
          node(`${descriptionId}.ap1`, 'AccessPoint', { name: 'Jewish councils', type: 'subject' }),
        ],
        hasUnknownProperty: [node(`${descriptionId}.up0`, 'UnknownProperty', { key: 'odd', level: 2 })],
      },
    );
  };
  return {
    bundle: node(
      id,
      'DocumentaryUnit',
      {
        identifier: `local-${id}`,
        otherIdentifiers: ['old-1', 'old-2'],
        singleton: ['only'],
        extentCount: 3,
        ratio: 0.25,
        published: true,
      },
      { describes: [descriptionOf('eng', 'Ghetto records'), descriptionOf('pol', 'Akta getta')] },
    ),
    hash: `hash-${id}`,
    edges: { heldBy: [repositoryId], hasPermissionScope: [repositoryId] },
  };
}

export function repository(id: string, countryId?: string, name = `Repository ${id}`): ItemWrite {
  const descriptionId = `${id}.eng`;
  const address = node(`${descriptionId}.address`, 'Address', {
    street: 'Herengracht 380',
    municipality: 'Amsterdam',
    email: ['info@example.org'],
  });
  return {
    bundle: node(
      id,
      'Repository',
      { identifier: `local-${id}` },
      {
        describes: [
          node(
            descriptionId,
            'RepositoryDescription',
            { name, languageCode: 'eng' },
            { hasAddress: [address] },
          ),
        ],
      },
    ),
    hash: `hash-${id}`,
    edges: countryId ? { hasCountry: [countryId] } : {},
  };
}

export function country(id: string, name = id.toUpperCase()): ItemWrite {
  return { bundle: node(id, 'Country', { identifier: id, name }), hash: `hash-${id}` };
}

export function link(id: string, targets: string[], edges: ItemWrite['edges'] = {}): ItemWrite {
  return {
    bundle: node(id, 'Link', { identifier: id, type: 'associative' }),
    hash: `hash-${id}`,
    edges: { hasLinkTarget: targets, ...edges },
  };
}

/** The bundle with dependents sorted by id and empty relations dropped: the port keeps no order. */
export function normalise(bundle: Bundle): Bundle {
  const relations: Bundle['relations'] = {};
  for (const [relation, children] of Object.entries(bundle.relations) as [
    keyof Bundle['relations'],
    Bundle[],
  ][]) {
    if (children.length === 0) continue;
    relations[relation] = children.map(normalise).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return { id: bundle.id, type: bundle.type, data: bundle.data, relations };
}

export function textQuery(text: string) {
  return { text, offset: 0, limit: 100 };
}

export function ids(result: { hits: { id: string }[] }): string[] {
  return result.hits.map((hit) => hit.id);
}

export function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

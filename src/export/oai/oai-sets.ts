import { GraphReader, ListedItem } from '../../graph/graph-store';
import { Props } from '../../items/bundle';
import { TombstonePlace } from '../../items/tombstones';
import { LocalNames } from '../../portal/languages';
import { UnitPlace } from '../dc/dc-sources';
import { bestDescription } from '../dc/dublin-core';
import { OaiError } from './oai-errors';
import { SET_SPEC } from './oai-request';

/**
 * Sets as the reference's provider makes them: one per country (`nl`), holding the units of its
 * repositories, and one per repository below it (`nl:nl-002345`), holding the units it holds.
 */

export interface OaiSet {
  spec: string;
  name: string;
  description: string;
}

/** What a set keeps of a list: the units below an item, and the deletions recorded there. */
export interface SetScope {
  below: string;
  /** The place of the deletions in the set. */
  tombstones: TombstonePlace;
}

const ENGLISH = new LocalNames('en');
/** Most countries a store can hold: each is a country code. */
const MOST_COUNTRIES = 10_000;

/** The set specs of a unit's place, those the schema allows (an id with other characters has none). */
export function setSpecsOf(place: UnitPlace): string[] {
  if (place.country === undefined) return [];
  const specs = [place.country];
  if (place.repository !== undefined) specs.push(`${place.country}:${place.repository}`);
  return specs.filter((spec) => SET_SPEC.test(spec));
}

/** What a set spec keeps; badArgument for one that names no country, or no repository in it. */
export async function resolveSet(tx: GraphReader, spec: string): Promise<SetScope> {
  const parts = spec.split(':');
  const noSet = (why: string) =>
    new OaiError('badArgument', `There is no set ${JSON.stringify(spec)}: ${why}`);
  if (parts.length > 2) throw noSet('a set is a country (nl) or a repository in it (nl:nl-002345)');
  const [country, repository] = parts;
  if (repository === undefined) {
    if ((await tx.getTypes([country])).get(country) !== 'Country') throw noSet(`no country ${country}`);
    return { below: country, tombstones: { country } };
  }
  const stored = (await tx.getItems([repository])).get(repository);
  if (stored?.bundle.type !== 'Repository') throw noSet(`no repository ${repository}`);
  if (!(stored.edges.hasCountry ?? []).includes(country)) throw noSet(`${repository} is not in ${country}`);
  return { below: repository, tombstones: { repository } };
}

function countryName(id: string, data: Props): string {
  const own = data.name;
  return ENGLISH.country(id) ?? (typeof own === 'string' ? own : id);
}

/** The sets of the countries that have repositories: few, all answered with the first page. */
export async function countrySets(tx: GraphReader): Promise<OaiSet[]> {
  const countries = await tx.listItems({ type: 'Country', limit: MOST_COUNTRIES });
  const children = await tx.countChildren(countries.map((country) => country.id));
  const kept = countries.filter(
    (country) => (children.get(country.id) ?? 0) > 0 && SET_SPEC.test(country.id),
  );
  const stored = await tx.getItems(kept.map((country) => country.id));
  return kept.map((country) => {
    const name = countryName(country.id, stored.get(country.id)?.bundle.data ?? {});
    return { spec: country.id, name, description: `All items in repositories within country: ${name}` };
  });
}

/**
 * A page of repository sets after the repository `after`: those that hold units and are in a
 * country, in id order; `next` names the last one answered when more follow.
 */
export async function repositorySets(
  tx: GraphReader,
  after: string | undefined,
  need: number,
): Promise<{ sets: OaiSet[]; next?: string }> {
  const sets: OaiSet[] = [];
  let cursor = after;
  for (;;) {
    const batch: ListedItem[] = await tx.listItems({ type: 'Repository', after: cursor, limit: need + 1 });
    const children = await tx.countChildren(batch.map((repository) => repository.id));
    const stored = await tx.getItems(batch.map((repository) => repository.id));
    for (const { id } of batch) {
      const repository = stored.get(id);
      const [country] = repository?.edges.hasCountry ?? [];
      const spec = `${country}:${id}`;
      if (repository === undefined || country === undefined || !SET_SPEC.test(spec) || !children.get(id))
        continue;
      if (sets.length === need) return { sets, next: cursor };
      const name = bestDescription(repository.bundle, undefined)?.data.name;
      const setName = typeof name === 'string' ? name : id;
      sets.push({ spec, name: setName, description: `All items within repository: ${setName}` });
      cursor = id;
    }
    if (batch.length <= need) return { sets };
    cursor = batch[batch.length - 1].id;
  }
}

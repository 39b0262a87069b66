import request from 'supertest';
import { ImportTestApp } from './import-client';
import { validateAgainst } from './xml-schemas';

/** A new repository `id` in the Netherlands, so that its units' ids start `nl-<id>-`. */
export async function addDutchRepository(t: ImportTestApp, id: string): Promise<void> {
  await t.addRepository(id);
  await t.store.write((tx) => tx.addEdges([{ from: id, type: 'hasCountry', to: 'nl' }]));
}

/** Commits an EAD import into `scope`; resolves to its answer, failing on anything but 201. */
export async function importEad(
  t: ImportTestApp,
  scope: string,
  body: string | Buffer,
  query: Record<string, string> = {},
): Promise<Record<string, unknown> & { created: number; updated: number; unchanged: number }> {
  const response = await t
    .post('ead', { scope, commit: 'true', ...query })
    .set('Content-Type', 'application/xml')
    .send(body);
  if (response.status !== 201) throw new Error(`Import answered ${response.status}: ${response.text}`);
  return response.body;
}

/** The ids of an import answer's created items. */
export function createdIds(answer: Record<string, unknown>): string[] {
  return Object.values(answer.created_keys as Record<string, string[]>).flat();
}

/** The top-level units among `ids` (held by `repository`), with the number of units each heads. */
export async function topLevelUnits(
  t: ImportTestApp,
  repository: string,
  ids: string[],
): Promise<{ id: string; units: number; language: string }[]> {
  return t.store.read(async (tx) => {
    const items = await tx.getItems(ids);
    const tops = [...items.values()].filter((item) => item.edges.heldBy?.includes(repository));
    const result: { id: string; units: number; language: string }[] = [];
    for (const top of tops) {
      const below = await tx.subtree(top.bundle.id);
      const language = top.bundle.relations.describes?.[0]?.data.languageCode;
      result.push({ id: top.bundle.id, units: below.length + 1, language: String(language ?? 'eng') });
    }
    return result;
  });
}

/** `GET /export/<version>/<unitId>` with a portal token; the finding aid's text. */
export async function exportUnit(
  t: ImportTestApp,
  token: string,
  version: 'ead' | 'ead3',
  unitId: string,
  lang?: string,
): Promise<string> {
  const response = await request(t.server)
    .get(`/export/${version}/${unitId}`)
    .query(lang === undefined ? {} : { lang })
    .set('Authorization', `Bearer ${token}`)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
  if (response.status !== 200)
    throw new Error(`Export answered ${response.status}: ${String(response.body)}`);
  return response.body as string;
}

/** Fails with libxml2's messages unless `xml` is valid against the schema. */
export async function expectValid(schema: 'ead.xsd' | 'ead3.xsd', xml: string): Promise<void> {
  const validation = await validateAgainst(schema, xml);
  if (!validation.valid) {
    throw new Error(`Not valid against ${schema}:\n${validation.errors.slice(0, 10).join('\n')}`);
  }
}

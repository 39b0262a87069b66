import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EHRI_FIXTURES } from './fixture-paths';
import { ImportTestApp } from './import-client';

export function ehriFixture(name: string): Buffer {
  return readFileSync(path.join(EHRI_FIXTURES, name));
}

/** The units of `hierarchical-ead.xml` imported into repository r1 in the Netherlands, top first. */
export const HIERARCHICAL_EAD_IDS = [
  'nl-r1-ctop_level_fonds',
  'nl-r1-ctop_level_fonds-c00001',
  'nl-r1-ctop_level_fonds-c00001-c00002',
  'nl-r1-ctop_level_fonds-c00001-c00002-1',
  'nl-r1-ctop_level_fonds-c00001-c00002-2',
];

/** The reference's repository r1, in the Netherlands (so that ids start `nl-r1-`). */
export async function addReferenceRepository(t: ImportTestApp): Promise<void> {
  await t.store.write((tx) => tx.addEdges([{ from: 'r1', type: 'hasCountry', to: 'nl' }]));
}

/**
 * An import's answer without the id of the stored log and of the request, and without its phase
 * timings, which differ between any two imports.
 */
export function answerOf(body: Record<string, unknown>): Record<string, unknown> {
  const { event: _event, requestId: _requestId, timings: _timings, ...rest } = body;
  return rest;
}

/** Commits an EAD import into r1. */
export function importEadIntoR1(
  t: ImportTestApp,
  body: string | Buffer,
  query: Record<string, string> = {},
  contentType = 'application/xml',
) {
  return t
    .post('ead', { scope: 'r1', commit: 'true', ...query })
    .set('Content-Type', contentType)
    .send(body);
}

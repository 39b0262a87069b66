import { PORTAL_TYPES, SEARCHED_TYPES, SUBTREE_TEXT_SCOPES, portalTypeNamed } from '../portal-types';
import { PORTAL_TYPE_DEFINITIONS } from '.';

describe('the portal types registry', () => {
  it('lists each type once, in the order the documents list them', () => {
    expect(PORTAL_TYPES).toEqual([
      'Country',
      'Repository',
      'DocumentaryUnit',
      'HistoricalAgent',
      'CvocConcept',
      'AuthoritativeSet',
      'CvocVocabulary',
    ]);
    expect(portalTypeNamed(' cvocconcept ')).toBe('CvocConcept');
  });

  it('derives what a search looks at and how deep a scope reaches from the definitions', () => {
    expect(SEARCHED_TYPES).toEqual([
      'Country',
      'Repository',
      'DocumentaryUnit',
      'HistoricalAgent',
      'CvocConcept',
    ]);
    expect(SUBTREE_TEXT_SCOPES).toEqual(['Repository', 'DocumentaryUnit']);
  });

  it('relates every type only to types it serves, so that each relationship leads somewhere', () => {
    const targets = PORTAL_TYPE_DEFINITIONS.flatMap((definition) =>
      Object.values(definition.relationships ?? {}).map((relationship) => relationship.type),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(PORTAL_TYPES).toContain(target);
  });

  it('gives every attribute schema a description and no attribute outside it', () => {
    for (const { type, schema } of PORTAL_TYPE_DEFINITIONS) {
      expect({ type, additionalProperties: schema.additionalProperties }).toEqual({
        type,
        additionalProperties: false,
      });
      expect(schema.description).toEqual(expect.any(String));
    }
  });
});

import { joinPath } from '../../items/identifiers';
import { UnitBuilder } from './unit-builder';

describe('UnitBuilder.unitId', () => {
  const importer = new UnitBuilder({
    tag: 'doc.xml',
    scope: { id: 'nl-r1', type: 'Repository', identifiers: ['nl', 'r1'] },
  });

  it.each([
    ['C00001', 'C00001-1'],
    ['C00001', 'C00001'],
    ['C00001', 'c00001-1'],
    ['A', 'AB.C'],
    ['Fonds 12', 'Fonds 12/3 (b)'],
    ['ΟΔΟΣ', 'ΟΔΟΣ_ΑΒ'],
    ['C1', 'C1-'],
    ['a.b', 'a.b'],
  ])('gives the child %s / %s the id joinPath gives its whole path', (parentLocalId, localId) => {
    const parent = { id: importer.unitId(parentLocalId), localId: parentLocalId };
    expect(parent.id).toBe(joinPath(['nl', 'r1', parentLocalId]));
    expect(importer.unitId(localId, parent)).toBe(joinPath(['nl', 'r1', parentLocalId, localId]));
  });
});

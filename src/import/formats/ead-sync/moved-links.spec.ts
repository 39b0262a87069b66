import { Bundle } from '../../../items/bundle';
import { matchAccessPoints } from './moved-links';

function unitWith(id: string, accessPoints: [type: string, name: string][]): Bundle {
  const descriptionId = `${id}.eng`;
  const relatesTo = accessPoints.map(([type, name], index) => ({
    id: `${descriptionId}/relatesTo/${index}`,
    type: 'AccessPoint' as const,
    data: { type, name },
    relations: {},
  }));
  const description: Bundle = {
    id: descriptionId,
    type: 'DocumentaryUnitDescription',
    data: {},
    relations: { relatesTo },
  };
  return { id, type: 'DocumentaryUnit', data: {}, relations: { describes: [description] } };
}

describe('matchAccessPoints', () => {
  it('pairs access points by type and name, wherever they are in the list', () => {
    const from = unitWith('old', [
      ['subject', 'Ghettos'],
      ['place', 'Berlin'],
    ]);
    const to = unitWith('new', [
      ['place', 'Berlin'],
      ['subject', 'Ghettos'],
    ]);
    expect(matchAccessPoints(from, to)).toEqual([
      ['old.eng/relatesTo/0', 'new.eng/relatesTo/1'],
      ['old.eng/relatesTo/1', 'new.eng/relatesTo/0'],
    ]);
  });

  it('leaves out access points the new unit has under another type, or not at all', () => {
    const from = unitWith('old', [
      ['subject', 'Berlin'],
      ['person', 'Anne Frank'],
    ]);
    const to = unitWith('new', [['place', 'Berlin']]);
    expect(matchAccessPoints(from, to)).toEqual([]);
  });
});

import { SubtreeEntry } from '../../../graph/graph-store';
import { ImportInputError } from '../format-reader';
import { keptUnits, planSync, SyncState } from './sync-plan';

function unit(id: string, localId: string, parentId: string): SubtreeEntry {
  return { id, type: 'DocumentaryUnit', localId, parentId };
}

/** Repository r holds fonds f, with child a, whose child is b. */
const BEFORE = [unit('r-f', 'F', 'r'), unit('r-f-a', 'A', 'r-f'), unit('r-f-a-b', 'B', 'r-f-a')];

function state(units: SubtreeEntry[], produced: string[], created: string[], kept: string[] = []): SyncState {
  return { units, produced: new Set(produced), created: new Set(created), kept: new Set(kept) };
}

describe('planSync', () => {
  it('deletes the units the incoming data no longer has, and lists the new ones as created', () => {
    const units = [...BEFORE, unit('r-f-c', 'C', 'r-f')];
    const plan = planSync(state(units, ['r-f', 'r-f-c'], ['r-f-c']));
    expect(plan).toEqual({ created: ['r-f-c'], deleted: ['r-f-a', 'r-f-a-b'], moved: {} });
  });

  it('changes nothing when the incoming data has every unit where it was', () => {
    const plan = planSync(state(BEFORE, ['r-f', 'r-f-a', 'r-f-a-b'], []));
    expect(plan).toEqual({ created: [], deleted: [], moved: {} });
  });

  it('takes a local id under a new parent for a move, neither created nor deleted', () => {
    const units = [...BEFORE, unit('r-f-b', 'B', 'r-f')];
    const plan = planSync(state(units, ['r-f', 'r-f-a', 'r-f-b'], ['r-f-b']));
    expect(plan).toEqual({ created: [], deleted: [], moved: { 'r-f-a-b': 'r-f-b' } });
  });

  it('lists created units outside the scope too, except moved ones', () => {
    const units = [...BEFORE, unit('r-f-b', 'B', 'r-f')];
    const plan = planSync(state(units, ['r-f', 'r-f-a', 'r-f-b', 'r-g'], ['r-f-b', 'r-g']));
    expect(plan.created).toEqual(['r-g']);
  });

  it('keeps the kept units the incoming data no longer has', () => {
    const plan = planSync(state(BEFORE, ['r-f'], [], ['r-f-a', 'r-f-a-b']));
    expect(plan.deleted).toEqual([]);
  });

  it('refuses local ids that two units held before the import, naming them', () => {
    const units = [...BEFORE, unit('r-f-b', 'B', 'r-f')];
    expect(() => planSync(state(units, ['r-f', 'r-f-a'], []))).toThrow(
      new ImportInputError('Local identifiers are not unique in the sync scope: B (r-f-a-b, r-f-b)'),
    );
  });

  it('refuses local ids that the incoming data gives two units', () => {
    const units = [...BEFORE, unit('r-f-x', 'X', 'r-f'), unit('r-f-a-x', 'X', 'r-f-a')];
    expect(() => planSync(state(units, ['r-f', 'r-f-a', 'r-f-x', 'r-f-a-x'], ['r-f-x', 'r-f-a-x']))).toThrow(
      /not unique in the sync scope: X \(r-f-a-x, r-f-x\)$/,
    );
  });

  it('refuses a kept unit whose local id the incoming data puts elsewhere', () => {
    const units = [...BEFORE, unit('r-f-b', 'B', 'r-f')];
    expect(() => planSync(state(units, ['r-f', 'r-f-a', 'r-f-b'], ['r-f-b'], ['r-f-a-b']))).toThrow(
      /B \(r-f-a-b, r-f-b\)/,
    );
  });
});

describe('keptUnits', () => {
  const units = [
    ...BEFORE,
    unit('r-f-a-b-c', 'C', 'r-f-a-b'),
    unit('r-f-d', 'D', 'r-f'),
    unit('r-g', 'G', 'r'),
  ];

  it('keeps the excluded units, their descendants, and the ancestors that hold them', () => {
    expect([...keptUnits(units, new Set(['r-f-a-b']))].sort()).toEqual([
      'r-f',
      'r-f-a',
      'r-f-a-b',
      'r-f-a-b-c',
    ]);
  });

  it('ignores ids that are not units of the scope', () => {
    expect(keptUnits(units, new Set(['elsewhere'])).size).toBe(0);
  });
});

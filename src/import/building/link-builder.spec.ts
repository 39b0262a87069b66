import { StoredItem } from '../../graph/graph-store';
import { Bundle } from '../../items/bundle';
import {
  accessPointIds,
  isLinkType,
  LinkSpec,
  linkId,
  linkWithBodies,
  newLinkWrite,
  unlinkableReason,
} from './link-builder';

const SPEC: LinkSpec = { ends: ['r1', 'c1'], accessPoint: 'ur1', type: 'associative', description: 'Test 2' };

describe('linkId', () => {
  it('is the same for the same link, whichever end comes first', () => {
    expect(linkId(SPEC)).toMatch(/^link-[0-9a-f]{32}$/);
    expect(linkId({ ...SPEC, ends: ['c1', 'r1'] })).toBe(linkId(SPEC));
  });

  it.each([
    ['another end', { ends: ['r1', 'c4'] }],
    ['another access point', { accessPoint: 'ur2' }],
    ['no access point', { accessPoint: undefined }],
    ['another type', { type: 'copy' }],
    ['a field', { field: 'relatedUnitsOfDescription' }],
    ['another description', { description: 'Test 3' }],
  ] as [string, Partial<LinkSpec>][])('differs for %s', (_what, change) => {
    expect(linkId({ ...SPEC, ...change })).not.toBe(linkId(SPEC));
  });
});

describe('newLinkWrite', () => {
  it('writes the link data, both ends, the bodies and the linker', () => {
    expect(newLinkWrite(SPEC, ['ur1'], 'mike')).toEqual({
      bundle: {
        id: linkId(SPEC),
        type: 'Link',
        data: { type: 'associative', description: 'Test 2' },
        relations: {},
      },
      edges: { hasLinkTarget: ['r1', 'c1'], hasLinker: ['mike'], hasLinkBody: ['ur1'] },
    });
  });

  it('names no bodies when there are none', () => {
    const { edges } = newLinkWrite(
      { ends: ['r4', 'c4'], type: 'copy', field: 'locationOfOriginals' },
      [],
      'mike',
    );
    expect(edges).toEqual({ hasLinkTarget: ['r4', 'c4'], hasLinker: ['mike'] });
  });
});

describe('linkWithBodies', () => {
  it('adds bodies to those the link has, naming no other edges', () => {
    const bundle: Bundle = { id: 'link4', type: 'Link', data: { type: 'copy' }, relations: {} };
    const stored: StoredItem = {
      bundle,
      edges: { hasLinkTarget: ['c4', 'r4'], hasLinkBody: ['ur5'] },
      hash: 'h',
      updated: '2024-01-01T00:00:00.000Z',
    };
    expect(linkWithBodies(stored, ['ur4', 'ur5'])).toEqual({
      bundle,
      edges: { hasLinkBody: ['ur4', 'ur5'] },
    });
  });
});

describe('unlinkableReason', () => {
  const types = new Map([
    ['c1', 'DocumentaryUnit'],
    ['mike', 'UserProfile'],
    ['link2', 'Link'],
  ] as const);

  it('accepts archival items and refuses missing items, users and links', () => {
    expect(unlinkableReason('c1', types)).toBeUndefined();
    expect(unlinkableReason('zz', types)).toBe('not found');
    expect(unlinkableReason('mike', types)).toBe('is a UserProfile, which cannot be linked');
    expect(unlinkableReason('link2', types)).toBe('is a Link, which cannot be linked');
  });
});

describe('isLinkType', () => {
  it('knows the reference link types only, in lower case', () => {
    expect(['associative', 'hierarchical', 'temporal', 'identity', 'family', 'copy'].every(isLinkType)).toBe(
      true,
    );
    expect(isLinkType('Associative')).toBe(false);
    expect(isLinkType('friendly')).toBe(false);
  });
});

describe('accessPointIds', () => {
  it('collects the access points of every description', () => {
    const point = (id: string): Bundle => ({ id, type: 'AccessPoint', data: { name: id }, relations: {} });
    const description = (id: string, points: Bundle[]): Bundle => ({
      id,
      type: 'DocumentaryUnitDescription',
      data: {},
      relations: { relatesTo: points },
    });
    const item: Bundle = {
      id: 'c1',
      type: 'DocumentaryUnit',
      data: {},
      relations: {
        describes: [description('c1.eng', [point('ur1')]), description('c1.deu', [point('ur2')])],
      },
    };
    expect(accessPointIds(item)).toEqual(new Set(['ur1', 'ur2']));
  });
});

import { Integer } from 'neo4j-driver';
import { ITEM_TYPES } from '../../items/item-types';
import { pageStatement } from './neo4j-page';

describe('pageStatement', () => {
  const page = { offset: 0, limit: 20 };

  it('reads only the items beside and the record without a search', () => {
    const { statement, parameters } = pageStatement({ ids: ['u1'], context: true, recordId: 'r' });
    expect(statement.name).toBe('PAGE_ITEMS');
    expect(parameters).toEqual({ itemIds: ['u1'], context: true, recordId: 'r' });
  });

  it('picks the statement of the source, scope, order and direction', () => {
    const name = (request: Parameters<typeof pageStatement>[0]) => pageStatement(request).statement.name;
    expect(name({ search: { ...page, text: 'council' } })).toBe('PAGE.text.everywhere.score.ascending');
    expect(name({ search: { ...page, order: { key: 'updated', descending: true } } })).toBe(
      'PAGE.browse.everywhere.updated.descending',
    );
    expect(name({ search: { ...page, scope: { id: 'r1', depth: 'children' } } })).toBe(
      'PAGE.browse.scoped.id.ascending',
    );
    expect(
      name({ search: { ...page, text: 'x', order: { key: 'name', descending: true } }, linkedTo: 'u1' }),
    ).toBe('PAGE.text.linked.name');
  });

  it('gives every parameter its statement names, no other, and all types for none asked', () => {
    const { statement, parameters } = pageStatement({
      search: { ...page, text: 'x', scope: { id: 'r1', depth: 'descendants' }, facets: ['holder'] },
    });
    expect(Object.keys(parameters).sort()).toEqual([...statement.parameters].sort());
    expect(Object.values(parameters)).not.toContain(undefined);
    expect(parameters.types).toEqual(ITEM_TYPES);
    expect(parameters.deepTypes).toEqual(ITEM_TYPES);
    expect(parameters.countHolders).toBe(true);
    expect(parameters.descending).toBeUndefined();
  });

  it('examines countLimit hits, or up to one past the page asked for, and every hit without it', () => {
    const examine = (request: Parameters<typeof pageStatement>[0]) =>
      (pageStatement(request).parameters.examine as Integer).toNumber();
    expect(examine({ search: { ...page, text: 'x' }, countLimit: 100 })).toBe(100);
    expect(examine({ search: { offset: 200, limit: 20 }, countLimit: 100 })).toBe(221);
    expect(examine({ search: { ...page, text: 'x' } })).toBe(2 ** 31 - 1);
  });

  it('takes the depth of a scope from its type when asked to', () => {
    const { parameters } = pageStatement({
      search: { ...page, scope: { id: 'r1', depth: 'children' } },
      deepScopeTypes: ['Repository'],
    });
    expect(parameters.deepTypes).toEqual(['Repository']);
  });
});

import { linkRow } from './link-rows';

describe('linkRow', () => {
  it('reads the six columns, leaving empty optional cells out', () => {
    expect(linkRow({ row: 3, cells: ['r1', 'c1', '', 'associative', '', 'Test'] })).toEqual({
      row: 3,
      spec: {
        ends: ['r1', 'c1'],
        accessPoint: undefined,
        type: 'associative',
        field: undefined,
        description: 'Test',
      },
    });
    expect(linkRow({ row: 1, cells: ['r1', 'c1', 'ur1', 'copy', 'locationOfOriginals', ''] })).toMatchObject({
      spec: { accessPoint: 'ur1', type: 'copy', field: 'locationOfOriginals', description: undefined },
    });
  });

  it.each([
    [['r1', 'c1', 'associative', '', 'Test'], 'a link row has 6 columns'],
    [['', 'c1', '', 'associative', '', ''], 'the source ID (column 1) is empty'],
    [['r1', '', '', 'associative', '', ''], 'the target ID (column 2) is empty'],
    [['c1', 'c1', '', 'associative', '', ''], 'the source and the target are the same item (c1)'],
    [['r1', 'c1', '', '', '', ''], 'type (column 4) "" is not one of associative'],
  ])('finds the problem with %j', (cells, problem) => {
    const read = linkRow({ row: 2, cells });
    expect(read).toEqual({ row: 2, problem: expect.stringContaining(problem) });
  });
});

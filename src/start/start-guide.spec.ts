import { startGuide } from './start-guide';

describe('startGuide', () => {
  it('names the address, the console and the API docs', () => {
    expect(startGuide('http://localhost:3000', true)).toBe(
      'Listening on http://localhost:3000: the console at http://localhost:3000/console, ' +
        'the API docs at http://localhost:3000/docs',
    );
  });

  it('gives the command that makes a token while none is active', () => {
    expect(startGuide('http://localhost:8080', false)).toMatch(
      /^Listening on http:\/\/localhost:8080: .*\/docs\. No token exists yet; .*: npx archive-cli token create --role ops --name console$/,
    );
  });
});

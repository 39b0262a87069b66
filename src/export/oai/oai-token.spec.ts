import { OaiError } from './oai-errors';
import { decodeToken, encodeToken, TokenState } from './oai-token';

const state: TokenState = {
  list: {
    verb: 'ListRecords',
    metadataPrefix: 'oai_dc',
    set: 'nl:nl-r1',
    from: '2024-01-01',
    cursor: { phase: 'live', after: 'nl-r1-c1' },
  },
  answered: 200,
};
const now = new Date('2024-06-01T12:00:00Z');
const later = new Date('2024-06-02T12:00:00Z');

function refusal(token: string, verb: 'ListRecords' | 'ListIdentifiers' | 'ListSets', at = now): string {
  try {
    decodeToken(token, verb, at);
  } catch (error) {
    expect(error).toBeInstanceOf(OaiError);
    expect((error as OaiError).code).toBe('badResumptionToken');
    return (error as OaiError).message;
  }
  throw new Error('The token was accepted');
}

describe('OAI-PMH resumption tokens', () => {
  it('carry the state of the list they continue, until they expire', () => {
    const token = encodeToken(state, later);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeToken(token, 'ListRecords', now)).toEqual(state);
    expect(refusal(token, 'ListRecords', new Date(later.getTime() + 1))).toMatch(
      /expired at 2024-06-02T12:00:00.000Z/,
    );
  });

  it('are refused for another verb, or when this provider did not make them', () => {
    const token = encodeToken(state, later);
    expect(refusal(token, 'ListIdentifiers')).toMatch(/continues ListRecords, not ListIdentifiers/);
    expect(refusal('not a token!', 'ListRecords')).toMatch(/was not made by this provider/);
    expect(refusal(Buffer.from('{"list":1}').toString('base64url'), 'ListRecords')).toMatch(/not made/);
    const twisted = {
      ...state,
      list: { ...state.list, cursor: { phase: 'sideways' } },
      expires: later.getTime(),
    };
    expect(refusal(Buffer.from(JSON.stringify(twisted)).toString('base64url'), 'ListRecords')).toMatch(
      /not made/,
    );
    expect(refusal('', 'ListSets')).toMatch(/not made/);
  });
});

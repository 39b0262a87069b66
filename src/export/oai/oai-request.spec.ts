import { OaiError } from './oai-errors';
import { argumentPairs, parseRequest } from './oai-request';

function refusal(query: string): { code: string; message: string } {
  try {
    parseRequest(argumentPairs(query));
  } catch (error) {
    expect(error).toBeInstanceOf(OaiError);
    return { code: (error as OaiError).code, message: (error as OaiError).message };
  }
  throw new Error(`${query} was accepted`);
}

describe('OAI-PMH requests', () => {
  it('takes each verb with its arguments', () => {
    expect(parseRequest(argumentPairs('verb=Identify'))).toEqual({ verb: 'Identify' });
    expect(parseRequest(argumentPairs('verb=GetRecord&identifier=nl-r1-a&metadataPrefix=oai_dc'))).toEqual({
      verb: 'GetRecord',
      identifier: 'nl-r1-a',
      metadataPrefix: 'oai_dc',
    });
    expect(
      parseRequest(argumentPairs('verb=ListRecords&metadataPrefix=ead&set=nl%3Anl-r1&from=2024-01-01')),
    ).toEqual({ verb: 'ListRecords', metadataPrefix: 'ead', set: 'nl:nl-r1', from: '2024-01-01' });
    expect(parseRequest(argumentPairs('resumptionToken=abc&verb=ListSets'))).toEqual({
      verb: 'ListSets',
      resumptionToken: 'abc',
    });
  });

  it('answers badVerb for a verb missing, repeated or unknown', () => {
    expect(refusal('')).toMatchObject({ code: 'badVerb' });
    expect(refusal('verb=Identify&verb=Identify').code).toBe('badVerb');
    expect(refusal('verb=identify')).toEqual({
      code: 'badVerb',
      message: expect.stringContaining('"identify" is not a verb') as string,
    });
  });

  it('answers badArgument for an argument unknown to the verb, repeated, missing or malformed', () => {
    expect(refusal('verb=Identify&identifier=x').message).toBe('Identify takes no argument "identifier"');
    expect(refusal('verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=ead').code).toBe('badArgument');
    expect(refusal('verb=ListRecords').message).toBe('ListRecords needs the argument metadataPrefix');
    expect(refusal('verb=GetRecord&metadataPrefix=oai_dc').message).toBe(
      'GetRecord needs the argument identifier',
    );
    expect(refusal('verb=ListIdentifiers&metadataPrefix=oai%20dc').code).toBe('badArgument');
    expect(refusal('verb=ListIdentifiers&metadataPrefix=oai_dc&set=a%20b').code).toBe('badArgument');
    expect(refusal('verb=ListIdentifiers&metadataPrefix=oai_dc&set=nl%3A').code).toBe('badArgument');
    expect(refusal('verb=ListMetadataFormats&identifier=').code).toBe('badArgument');
  });

  it('takes a resumption token with the verb alone', () => {
    expect(refusal('verb=ListRecords&resumptionToken=abc&metadataPrefix=oai_dc').message).toMatch(
      /exclusive/,
    );
    expect(refusal('verb=GetRecord&resumptionToken=abc').code).toBe('badArgument');
  });
});

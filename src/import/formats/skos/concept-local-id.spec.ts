import { conceptLocalId } from './concept-local-id';

describe('conceptLocalId', () => {
  const repositoryType = 'http://icaatom.ehri-project.eu/index.php/other-archives;term';

  it('strips baseURI and suffix when the URI has both', () => {
    const affixes = { baseURI: 'http://icaatom.ehri-project.eu/index.php/', suffix: ';term' };

    expect(conceptLocalId(repositoryType, affixes)).toBe('other-archives');
  });

  it('strips only baseURI when the suffix does not end the URI', () => {
    const affixes = { baseURI: 'http://icaatom.ehri-project.eu/index.php/', suffix: '#x' };

    expect(conceptLocalId(repositoryType, affixes)).toBe('other-archives;term');
  });

  it('ignores baseURI and suffix when the URI does not start with baseURI', () => {
    expect(conceptLocalId('http://www.my.com/#canals', { baseURI: 'http://other.org/', suffix: 's' })).toBe(
      'canals',
    );
  });

  it('takes the fragment, decoded, when there is one', () => {
    expect(conceptLocalId('http://www.my.com/#hydrographic%20structures', {})).toBe(
      'hydrographic structures',
    );
  });

  it('takes the last non-empty path segment and the query otherwise', () => {
    expect(conceptLocalId('http://sws.geonames.org/125605/', {})).toBe('125605');
    expect(conceptLocalId('http://ehri01.dans.knaw.nl/989', {})).toBe('989');
    expect(conceptLocalId('http://example.org/term?id=7', {})).toBe('termid=7');
  });

  it('is empty when the URI has no local part', () => {
    expect(conceptLocalId('http://example.org/', {})).toBe('');
  });
});

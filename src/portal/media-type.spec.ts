import { acceptsJsonApi, isParameterisedJsonApi } from './media-type';

describe('acceptsJsonApi', () => {
  it.each([
    [undefined],
    ['*/*'],
    ['application/json'],
    ['application/vnd.api+json'],
    ['Application/VND.API+JSON'],
    ['application/vnd.api+json; ext="x", application/vnd.api+json'],
    ['text/html, application/vnd.api+json;q=0.5'],
    [['application/vnd.api+json; ext=x', 'application/vnd.api+json']],
  ])('accepts %j', (accept) => {
    expect(acceptsJsonApi(accept)).toBe(true);
  });

  it.each([
    ['application/vnd.api+json; charset=utf-8'],
    ['application/vnd.api+json;ext="x", application/vnd.api+json; profile="y"'],
    ['application/json, application/vnd.api+json; version=1;q=0.9'],
    [['application/vnd.api+json; a=b', 'text/plain']],
  ])('refuses %j, where every JSON:API range has parameters', (accept) => {
    expect(acceptsJsonApi(accept)).toBe(false);
  });
});

describe('isParameterisedJsonApi', () => {
  it.each([
    [undefined, false],
    ['application/json; charset=utf-8', false],
    ['application/vnd.api+json', false],
    ['application/vnd.api+json;', false],
    ['application/vnd.api+json; charset=utf-8', true],
    ['APPLICATION/VND.API+JSON;ext=x', true],
  ])('%j → %s', (contentType, expected) => {
    expect(isParameterisedJsonApi(contentType)).toBe(expected);
  });
});

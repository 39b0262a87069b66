import { loadConfig } from './app-config';

describe('loadConfig: the port', () => {
  it('takes 0 to 65535, and refuses any other before anything listens', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65_535);
    expect(() => loadConfig({ PORT: '65536' })).toThrow('PORT must be at most 65535, got "65536"');
    expect(() => loadConfig({ PORT: '-1' })).toThrow('PORT must be a non-negative integer');
  });

  it('asks portal clients for a token unless PORTAL_AUTH is off', () => {
    expect(loadConfig({}).portalAuth).toBe('token');
    expect(loadConfig({ PORTAL_AUTH: ' OFF ' }).portalAuth).toBe('off');
    expect(loadConfig({ PORTAL_AUTH: 'token' }).portalAuth).toBe('token');
    expect(() => loadConfig({ PORTAL_AUTH: 'public' })).toThrow(
      'PORTAL_AUTH must be token or off, got "public"',
    );
  });
});

describe('loadConfig: the search cache', () => {
  it("leaves the size to the store's default unless SEARCH_CACHE_MB sets it, at least 1 MiB", () => {
    expect(loadConfig({}).searchCacheMiB).toBeUndefined();
    expect(loadConfig({ SEARCH_CACHE_MB: '256' }).searchCacheMiB).toBe(256);
    expect(() => loadConfig({ SEARCH_CACHE_MB: '0' })).toThrow('SEARCH_CACHE_MB must be at least 1');
  });
});

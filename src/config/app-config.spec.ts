import { loadConfig } from './app-config';

describe('loadConfig: the port', () => {
  it('takes 0 to 65535, and refuses any other before anything listens', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65_535);
    expect(() => loadConfig({ PORT: '65536' })).toThrow('PORT="65536": must be an integer from 0 to 65535');
    expect(() => loadConfig({ PORT: '-1' })).toThrow('PORT="-1": must be an integer from 0 to 65535');
  });

  it('makes the public URL from the port unless PUBLIC_URL is set, without a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://archive.example.org/' }).publicUrl).toBe(
      'https://archive.example.org',
    );
  });

  it('asks portal clients for a token unless PORTAL_AUTH is off', () => {
    expect(loadConfig({}).portalAuth).toBe('token');
    expect(loadConfig({ PORTAL_AUTH: ' OFF ' }).portalAuth).toBe('off');
    expect(loadConfig({ PORTAL_AUTH: 'token' }).portalAuth).toBe('token');
    expect(() => loadConfig({ PORTAL_AUTH: 'public' })).toThrow(
      'PORTAL_AUTH="public": must be one of token, off',
    );
  });
});

describe('loadConfig: the search cache', () => {
  it("leaves the size to the store's default unless SEARCH_CACHE_MB sets it, at least 1 MiB", () => {
    expect(loadConfig({}).searchCacheMiB).toBeUndefined();
    expect(loadConfig({ SEARCH_CACHE_MB: '256' }).searchCacheMiB).toBe(256);
    expect(() => loadConfig({ SEARCH_CACHE_MB: '0' })).toThrow(
      'SEARCH_CACHE_MB="0": must be an integer of at least 1',
    );
  });
});

describe('loadConfig: import roots', () => {
  it('resolves each colon-separated folder, skipping empty ones', () => {
    expect(loadConfig({ IMPORT_ROOTS: '/srv/a: :/srv/b:' }).import.roots).toEqual(['/srv/a', '/srv/b']);
    expect(loadConfig({}).import.roots).toEqual([]);
  });
});

describe('loadConfig: the import queue', () => {
  it('bounds imports held by default, and takes no bound of 0', () => {
    expect(loadConfig({}).import.queue).toEqual({
      maxJobs: 32,
      maxJobsPerUser: 4,
      maxBytes: 4096 * 1024 * 1024,
      maxBytesPerUser: 1024 * 1024 * 1024,
    });
    expect(loadConfig({ IMPORT_QUEUE_MAX_JOBS_PER_USER: '1' }).import.queue.maxJobsPerUser).toBe(1);
    expect(() => loadConfig({ IMPORT_QUEUE_MAX_JOBS: '0' })).toThrow(
      'IMPORT_QUEUE_MAX_JOBS="0": must be an integer of at least 1',
    );
  });

  it('refuses a per-minute import limit, which it no longer reads, naming what bounds imports now', () => {
    expect(() => loadConfig({ IMPORT_RATE_LIMIT: '60' })).toThrow(/IMPORT_QUEUE_MAX_JOBS_PER_USER/);
    expect(loadConfig({ IMPORT_RATE_LIMIT: '0' }).rateLimits).toEqual({ portal: 1200 });
  });
});

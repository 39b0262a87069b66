import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readSettings, SETTINGS, SettingsError } from './settings';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    readSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems.map((problem) => problem.name);
  }
  throw new Error('The settings were accepted');
}

describe('the settings schema', () => {
  it('gives every default when nothing is set, and when a variable is empty', () => {
    const settings = readSettings({ PORT: '', LOG_LEVEL: '  ' });
    expect(settings).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info', GRAPH_URL: 'sqlite:./data/archive.db' });
    expect(settings.PUBLIC_URL).toBeUndefined();
  });

  it('reports every value that is not allowed at once, naming variable, value and what is allowed', () => {
    const env = { LOG_LEVEL: 'verbose', PORT: 'abc', HTTP_WORKERS: '0', SEARCH_ACCELERATED: 'maybe' };
    expect(problemsOf(env)).toEqual(['PORT', 'HTTP_WORKERS', 'LOG_LEVEL', 'SEARCH_ACCELERATED']);
    expect(() => readSettings(env)).toThrow(
      [
        '4 settings are not allowed:',
        '  PORT="abc": must be an integer from 0 to 65535',
        '  HTTP_WORKERS="0": must be an integer of at least 1',
        '  LOG_LEVEL="verbose": must be one of fatal, error, warn, info, debug, trace, silent',
        '  SEARCH_ACCELERATED="maybe": must be true or false (or 1/0, yes/no)',
      ].join('\n'),
    );
  });

  it('takes integers as digits only', () => {
    expect(readSettings({ IMPORT_MAX_DEPTH: ' 12 ' }).IMPORT_MAX_DEPTH).toBe(12);
    for (const value of ['1e3', '0x10', '1.5', '-3', '99999999999999999999']) {
      expect(problemsOf({ IMPORT_MAX_DEPTH: value })).toEqual(['IMPORT_MAX_DEPTH']);
    }
  });

  it('takes a SQLite path or a Neo4j URL as the store, and an http(s) URL as the public one', () => {
    expect(readSettings({ GRAPH_URL: 'neo4j+s://db.example.org:7687' }).GRAPH_URL).toBe(
      'neo4j+s://db.example.org:7687',
    );
    expect(readSettings({ GRAPH_URL: 'sqlite:/var/lib/archive.db' }).GRAPH_URL).toBe(
      'sqlite:/var/lib/archive.db',
    );
    expect(problemsOf({ GRAPH_URL: 'postgres://db', PUBLIC_URL: 'archive.example.org' })).toEqual([
      'GRAPH_URL',
      'PUBLIC_URL',
    ]);
    expect(problemsOf({ GRAPH_URL: 'sqlite:' })).toEqual(['GRAPH_URL']);
  });

  it('reads booleans and choices whatever their case; a password as it is set', () => {
    expect(readSettings({ IMPORT_ALLOW_PRIVATE_URLS: 'YES', IMPORT_RUNNER: 'Inline' })).toMatchObject({
      IMPORT_ALLOW_PRIVATE_URLS: true,
      IMPORT_RUNNER: 'inline',
    });
    expect(readSettings({ NEO4J_PASSWORD: ' secret ' }).NEO4J_PASSWORD).toBe(' secret ');
  });
});

describe('the documents that list the settings', () => {
  const root = path.resolve(__dirname, '..', '..');
  const names = Object.keys(SETTINGS).sort();

  it('.env.example names every setting of the schema, and no other', () => {
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    // Set or commented out ("# IMPORT_TEMP_DIR=/var/tmp/archive").
    const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual(names);
  });

  it("the README's and docs/operations.md's tables together list every setting, and no other", () => {
    const tables = ['README.md', 'docs/operations.md']
      .map((file) => readFileSync(path.join(root, file), 'utf8'))
      .join('\n');
    const listed = [...tables.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual(names);
  });

  it('docker/compose.yaml passes every setting through .env and fixes only settings of the schema', () => {
    const compose = readFileSync(path.join(root, 'docker', 'compose.yaml'), 'utf8');
    const archive = compose.slice(compose.indexOf('\n  archive:'));
    expect(archive).toMatch(/env_file:\n\s+- path: \.\.\/\.env\n\s+required: false/);
    const environment = archive.slice(archive.indexOf('environment:'), archive.indexOf('\n    volumes:'));
    const fixed = [...environment.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]);
    expect(fixed.length).toBeGreaterThan(0);
    expect(fixed.filter((name) => !names.includes(name))).toEqual([]);
  });
});

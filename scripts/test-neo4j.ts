import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { settingsFromEnv, startServer, stopServer } from './neo4j-server';

/**
 * `npm run test:neo4j`: the store contract suite and the HTTP end-to-end tests on a live Neo4j,
 * one file at a time (Neo4j Community has one user database, which every test app empties). With
 * `NEO4J_TEST_URL` set it uses that server (and `NEO4J_TEST_USER`, `NEO4J_TEST_PASSWORD`); else it
 * starts a test server of its own, in `NEO4J_TEST_DATA_DIR` (default ./data/neo4j-test) on
 * `NEO4J_TEST_BOLT_PORT` (default 7688), apart from a development server's data, and stops it
 * afterwards if it started it. Arguments go to Jest.
 */
async function main(jestArgs: string[]): Promise<number> {
  const given = process.env.NEO4J_TEST_URL?.trim();
  const settings = settingsFromEnv({
    NEO4J_DATA_DIR: process.env.NEO4J_TEST_DATA_DIR || 'data/neo4j-test',
    NEO4J_BOLT_PORT: process.env.NEO4J_TEST_BOLT_PORT || '7688',
    NEO4J_PASSWORD: process.env.NEO4J_TEST_PASSWORD,
    NEO4J_HEAP: process.env.NEO4J_HEAP,
    NEO4J_PAGE_CACHE: process.env.NEO4J_PAGE_CACHE,
  });
  let started = false;
  let url = given;
  if (!url) {
    ({ url, started } = await startServer(settings));
    console.log(`Neo4j test server ${started ? 'started' : 'already running'} at ${url}`);
  }
  try {
    const jest = spawnSync(
      process.execPath,
      [
        // One process runs every file in turn (--runInBand): room for what the files leave behind.
        '--max-old-space-size=6144',
        require.resolve('jest/bin/jest'),
        '--config',
        path.join(__dirname, '..', 'jest.neo4j.config.js'),
        '--runInBand',
        // A test that times out may leave a child process behind; the run must still end.
        '--forceExit',
        ...jestArgs,
      ],
      {
        stdio: 'inherit',
        env: {
          ...process.env,
          TEST_STORE: 'neo4j',
          NEO4J_TEST_URL: url,
          NEO4J_TEST_PASSWORD: given ? (process.env.NEO4J_TEST_PASSWORD ?? '') : settings.password,
        },
      },
    );
    return jest.status ?? 1;
  } finally {
    if (started) await stopServer(settings.dataDir);
  }
}

main(process.argv.slice(2)).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    // No skip: a Neo4j run that cannot start its server fails.
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Bundle } from '../../src/items/bundle';
import { itemHash } from '../../src/items/change-detection';
import { ImportTestFormatsModule } from './import-test-formats';
import { createTestApp, TestApp, TestAppOptions } from './test-app';

/** An app with the test import formats, an import root, a user, a token and a repository `r1`. */
export interface ImportTestApp extends TestApp {
  /** A folder configured as the only import root. */
  root: string;
  userId: string;
  importToken: string;
  /** `POST /import/<format>` as the test user, with the import token. */
  post(format: string, query?: Record<string, string | string[]>): request.Test;
  /** Stored items among `ids`, by id. */
  items(ids: string[]): Promise<Map<string, Bundle>>;
  addRepository(id: string): Promise<void>;
}

export async function createImportTestApp(
  env: Record<string, string> = {},
  options: Pick<TestAppOptions, 'logDestination'> = {},
): Promise<ImportTestApp> {
  const root = await mkdtemp(path.join(tmpdir(), 'import-root-'));
  const app = await createTestApp({
    ...options,
    imports: [ImportTestFormatsModule],
    env: { IMPORT_ROOTS: root, ...env },
  });
  const userId = await app.user();
  const importToken = await app.token('import');
  const addRepository = async (id: string) => {
    const bundle: Bundle = { id, type: 'Repository', data: { identifier: id }, relations: {} };
    await app.store.write((tx) => tx.putItems([{ bundle, hash: itemHash(bundle) }]));
  };
  await addRepository('r1');
  return {
    ...app,
    root,
    userId,
    importToken,
    post: (format, query = {}) =>
      request(app.server)
        .post(`/import/${format}`)
        .query(query)
        .set('Authorization', `Bearer ${importToken}`)
        .set('X-User', userId),
    items: async (ids) => {
      const stored = await app.store.read((tx) => tx.getItems(ids));
      return new Map([...stored].map(([id, item]) => [id, item.bundle]));
    },
    addRepository,
    close: async () => {
      await app.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** An import test app with an ops token; both are set once the enclosing block's tests start. */
export interface OpsTestSuite {
  t: ImportTestApp;
  opsToken: string;
}

/** Opens an import test app and an ops token before the enclosing block's tests, closes it after. */
export function useOpsTestSuite(): OpsTestSuite {
  const suite = {} as OpsTestSuite;
  beforeAll(async () => {
    suite.t = await createImportTestApp();
    suite.opsToken = await suite.t.token('ops');
  });
  afterAll(() => suite.t?.close());
  return suite;
}

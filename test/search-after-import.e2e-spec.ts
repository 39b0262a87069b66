import request from 'supertest';
import { RankingAccelerator } from '../src/graph/sqlite/search/accelerated/ranking-accelerator';
import { JSONAPI_MEDIA_TYPE } from '../src/portal/jsonapi';
import { createImportTestApp, ImportTestApp } from './support/import-client';
import { eadOf } from './support/job-events';
import { describeUnlessNeo4j } from './support/test-store';

/**
 * An import the worker thread commits reads, before its commit, what the serving thread's searches
 * read last, and hands it over: the first searches after the commit read no postings themselves.
 */
describeUnlessNeo4j('the search caches handed over by the import worker are the SQLite store’s')(
  'Searches right after an import committed by the import worker',
  () => {
    let app: ImportTestApp;
    let portalToken: string;
    let postingsReads: jest.SpyInstance;

    beforeAll(async () => {
      app = await createImportTestApp({ IMPORT_RUNNER: 'thread' });
      portalToken = await app.token('portal');
      await app.addRepository('ra');
    });
    afterAll(() => app.close());
    afterEach(() => postingsReads?.mockRestore());

    const commitEad = async (fonds: string) => {
      const answer = await app
        .post('ead', { scope: 'ra', commit: 'true', tag: `${fonds}.xml` })
        .set('Content-Type', 'application/xml')
        .send(eadOf(fonds, 40));
      expect(answer.status).toBe(201);
    };
    const search = async (q: string) => {
      const answer = await request(app.server)
        .get('/api/v1/search')
        .query({ q })
        .set('Authorization', `Bearer ${portalToken}`)
        .set('Accept', JSONAPI_MEDIA_TYPE);
      expect(answer.status).toBe(200);
      return answer.body as { meta: { total: number }; data: { id: string }[] };
    };

    it('answers the words searched before the commit from what the worker read', async () => {
      await commitEad('fa');
      expect((await search('correspondence')).meta.total).toBe(40);
      expect((await search('minutes fonds')).meta.total).toBe(0);
      postingsReads = jest.spyOn(
        RankingAccelerator.prototype as unknown as { readPostings: () => Promise<unknown> },
        'readPostings',
      );

      await commitEad('fb');
      const after = await search('correspondence');
      expect(after.meta.total).toBe(80);
      expect(after.data.map((hit) => hit.id)).toEqual(
        (
          await app.store.write(
            (tx) => tx.search({ text: 'correspondence', offset: 0, limit: after.data.length }),
            {
              commit: false,
            },
          )
        ).hits.map((hit) => hit.id),
      );
      expect((await search('minutes fonds')).meta.total).toBe(0);
      expect(postingsReads).not.toHaveBeenCalled();
    });
  },
);

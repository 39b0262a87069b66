import { Worker } from 'node:worker_threads';
import { buildArchive } from './support/archives';
import { EadAppPair, eadAppPair, PAIR_SKIP_REASON } from './support/ead-app-pair';
import { ehriFixture as fixture, HIERARCHICAL_EAD_IDS as HIERARCHY } from './support/ehri-fixtures';
import { ImportTestApp } from './support/import-client';
import { describeUnlessNeo4j } from './support/test-store';

/**
 * EAD read in a worker thread (`IMPORT_WORKER_MIN_BYTES=0`: every source, however small) answers
 * and stores what EAD read in process does.
 */
describeUnlessNeo4j(`${PAIR_SKIP_REASON} (read in a worker thread)`)(
  'POST /import/ead read in a worker thread',
  () => {
    let pair: EadAppPair;
    let inWorker: ImportTestApp;
    let inProcess: ImportTestApp;

    beforeEach(async () => {
      // Every worker that reads is ended, so counting the ends counts the workers.
      pair = await eadAppPair({ subject: { IMPORT_WORKER_MIN_BYTES: '0' }, baseline: {} }, () =>
        jest.spyOn(Worker.prototype, 'terminate'),
      );
      ({ subject: inWorker, baseline: inProcess } = pair);
    });

    afterEach(() => pair.close());

    /** `pair.importBoth`, with the document read in a worker by the subject only; the worker's answer. */
    const importBoth = async (...args: Parameters<EadAppPair['importBoth']>) => {
      const { answer, subjectCalls, baselineCalls } = await pair.importBoth(...args);
      expect(subjectCalls).toBeGreaterThan(0);
      expect(baselineCalls).toBe(0);
      return answer;
    };

    it('creates the five units of hierarchical-ead.xml as in process, then finds them unchanged', async () => {
      const first = await importBoth(fixture('hierarchical-ead.xml'), 201);
      expect(first.created).toBe(5);
      expect([...(first.created_keys as Record<string, string[]>)['-']].sort()).toEqual(HIERARCHY);
      const stored = (t: ImportTestApp) => t.store.read((tx) => tx.getItems(HIERARCHY));
      const [byWorker, byProcess] = await Promise.all([stored(inWorker), stored(inProcess)]);
      for (const id of HIERARCHY) {
        expect(byWorker.get(id)?.bundle).toEqual(byProcess.get(id)?.bundle);
        expect(byWorker.get(id)?.edges).toEqual(byProcess.get(id)?.edges);
        expect(byWorker.get(id)?.hash).toBe(byProcess.get(id)?.hash);
      }

      const again = await importBoth(fixture('hierarchical-ead.xml'), 201);
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    });

    it('merges descriptions by language as in process, and finds either language unchanged again', async () => {
      const english = fixture('single-ead-multilang-eng.xml');
      const german = fixture('single-ead-multilang-deu.xml');
      expect(await importBoth(english, 201)).toMatchObject({ created: 1 });
      expect(await importBoth(german, 201, { 'allow-update': 'true' })).toMatchObject({ updated: 1 });
      // Without allow-update: an update would be refused.
      expect(await importBoth(german, 201)).toMatchObject({ unchanged: 1 });
      expect(await importBoth(english, 201)).toMatchObject({ unchanged: 1 });
      const stored = async (t: ImportTestApp) => [
        ...(await t.store.read((tx) => tx.getItems(['nl-r1-c00001']))).values(),
      ];
      const [[byWorker], [byProcess]] = await Promise.all([stored(inWorker), stored(inProcess)]);
      expect(byWorker.bundle.relations.describes).toHaveLength(2);
      expect(byWorker.bundle).toEqual(byProcess.bundle);
      expect(byWorker.hash).toBe(byProcess.hash);
    });

    it('refuses truncated XML with the answer given in process, naming the tag, line and column', async () => {
      const truncated = fixture('ead.xml').subarray(0, 1500);
      const lines = truncated.toString('utf8').split('\n');
      const refused = await importBoth(truncated, 400, { tag: 'ead.xml' });
      expect(refused.details).toMatchObject({
        tag: 'ead.xml',
        line: lines.length,
        column: lines[lines.length - 1].length + 1,
      });
    });

    it('reports invalid units as in process, refused or tolerated', async () => {
      await importBoth(fixture('anonymous-c-levels.xml'), 400);
      const tolerated = await importBoth(fixture('anonymous-c-levels.xml'), 201, { tolerant: 'true' });
      expect(tolerated.created).toBe(2);
    });

    it('refuses an update as in process, ending the worker when the run fails', async () => {
      await importBoth(fixture('ead.xml'), 201);
      const edited = fixture('ead.xml')
        .toString('utf8')
        .replace('>Test EAD Item</unittitle>', '>Test EAD Item, edited</unittitle>');
      const refused = await importBoth(edited, 400);
      expect(JSON.stringify(refused.details)).toContain('nl-r1-test_doc');
    });

    it('reads each document of an archive in a worker of its own', async () => {
      const archive = await buildArchive('zip', {
        'ead.xml': fixture('ead.xml'),
        'hierarchical-ead.xml': fixture('hierarchical-ead.xml'),
      });
      const { answer, subjectCalls } = await pair.importBoth(archive, 201, {}, 'application/octet-stream');
      expect(subjectCalls).toBe(2);
      expect(answer.created).toBe(6);
      expect((answer.created_keys as Record<string, string[]>)['hierarchical-ead.xml']).toHaveLength(5);
    });
  },
);

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { buildArchive } from './support/archives';
import { EadAppPair, eadAppPair, PAIR_SKIP_REASON } from './support/ead-app-pair';
import { ehriFixture as fixture, HIERARCHICAL_EAD_IDS as HIERARCHY } from './support/ehri-fixtures';
import { ImportTestApp } from './support/import-client';
import { describeUnlessNeo4j } from './support/test-store';

/**
 * Read memos (`src/import/reading/read-memos.ts`): a document imported again unchanged is replayed
 * from its memo instead of being parsed, and every import answers and stores what it does with
 * memos off, whatever happened to the store in between.
 */
describeUnlessNeo4j(`${PAIR_SKIP_REASON} (with read memos)`)('POST /import/ead with read memos', () => {
  let pair: EadAppPair;
  let withMemos: ImportTestApp;

  beforeEach(async () => {
    // Any XML read in this process goes through a parser's `write`.
    pair = await eadAppPair({ subject: {}, baseline: { IMPORT_READ_MEMO_MAX_BYTES: '0' } }, () =>
      jest.spyOn(SaxesParser.prototype, 'write'),
    );
    withMemos = pair.subject;
  });

  afterEach(() => pair.close());

  /**
   * `pair.importBoth`: the answer with memos, and whether that app parsed the document rather
   * than replaying it.
   */
  const importBoth = async (...args: Parameters<EadAppPair['importBoth']>) => {
    const { answer, subjectCalls } = await pair.importBoth(...args);
    return { answer, parsed: subjectCalls > 0 };
  };

  it('replays an unchanged document, once its items are stored as it gave them', async () => {
    const document = fixture('hierarchical-ead.xml');
    // A dry run leaves a memo, but stores nothing for it to be replayed against.
    const dryRun = await importBoth(document, 201, { commit: 'false' });
    expect(dryRun).toMatchObject({ answer: { created: 5 }, parsed: true });
    expect(await readdir(path.join(withMemos.dataDir, 'read-memos'))).toHaveLength(1);
    expect(await importBoth(document, 201)).toMatchObject({ answer: { created: 5 }, parsed: true });

    const again = await importBoth(document, 201);
    expect(again).toMatchObject({ answer: { created: 0, updated: 0, unchanged: 5 }, parsed: false });
    expect([...(again.answer.unchanged_keys as Record<string, string[]>)['-']].sort()).toEqual(HIERARCHY);
    // Under another tag it is read again.
    expect(await importBoth(document, 201, { tag: 'h.xml' })).toMatchObject({ parsed: true });
  });

  it('reads again when the store no longer holds an item as the document gave it', async () => {
    const document = fixture('hierarchical-ead.xml');
    await importBoth(document, 201);
    for (const t of [pair.subject, pair.baseline])
      await t.store.write((tx) => tx.deleteItems([HIERARCHY[4]]));
    const afterDeletion = await importBoth(document, 201);
    expect(afterDeletion).toMatchObject({ answer: { created: 1, unchanged: 4 }, parsed: true });
    expect(await importBoth(document, 201)).toMatchObject({ answer: { unchanged: 5 }, parsed: false });
  });

  it('reads again after another language was merged into an item, which is then unchanged', async () => {
    const english = fixture('single-ead-multilang-eng.xml');
    const german = fixture('single-ead-multilang-deu.xml');
    await importBoth(english, 201);
    expect(await importBoth(german, 201, { 'allow-update': 'true' })).toMatchObject({
      answer: { updated: 1 },
    });
    expect(await importBoth(english, 201)).toMatchObject({ answer: { unchanged: 1 }, parsed: true });
  });

  it('replays refused units: listed when tolerant, refusing the import otherwise', async () => {
    const document = fixture('anonymous-c-levels.xml');
    const tolerant = { tolerant: 'true' };
    expect(await importBoth(document, 201, tolerant)).toMatchObject({ answer: { created: 2 }, parsed: true });
    const again = await importBoth(document, 201, tolerant);
    expect(again).toMatchObject({ answer: { unchanged: 2 }, parsed: false });
    expect(Object.keys(again.answer.errors as object)).toHaveLength(2);
    expect(await importBoth(document, 400)).toMatchObject({ parsed: false });
  });

  it.each(['zip', 'tar.gz'] as const)('replays the unchanged documents of a %s', async (format) => {
    const archive = await buildArchive(format, {
      'ead.xml': fixture('ead.xml'),
      'hierarchical-ead.xml': fixture('hierarchical-ead.xml'),
    });
    const octets = 'application/octet-stream';
    expect(await importBoth(archive, 201, {}, octets)).toMatchObject({
      answer: { created: 6 },
      parsed: true,
    });
    expect(await importBoth(archive, 201, {}, octets)).toMatchObject({
      answer: { unchanged: 6 },
      parsed: false,
    });
  });
});

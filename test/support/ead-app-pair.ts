import { addReferenceRepository, answerOf, importEadIntoR1 } from './ehri-fixtures';
import { createImportTestApp, ImportTestApp } from './import-client';

/** What one EAD import into both apps of a pair gave. */
export interface PairedImport {
  /** The subject's answer, equal to the baseline's but for the stored log's id. */
  answer: Record<string, unknown>;
  /** Calls the watched method got during the subject's import, and during the baseline's. */
  subjectCalls: number;
  baselineCalls: number;
}

/**
 * Two import apps with the reference repository r1 in the Netherlands, configured apart: a
 * subject and the baseline it must answer as, with a method watched to tell how each did it.
 */
export interface EadAppPair {
  subject: ImportTestApp;
  baseline: ImportTestApp;
  /** Commits the same EAD import into r1 of both, expecting `status` and equal answers from each. */
  importBoth(
    body: string | Buffer,
    status: number,
    query?: Record<string, string>,
    contentType?: string,
  ): Promise<PairedImport>;
  close(): Promise<void>;
}

/**
 * Why a pair does not run on Neo4j: its two apps need a store each, and Neo4j Community serves
 * one user database, which they would share (the second app empties the first's).
 */
export const PAIR_SKIP_REASON =
  'two apps compared side by side need a store each, and Neo4j Community has one user database; ' +
  'what they compare (how a document is read) does not depend on the store';

export async function eadAppPair(
  env: { subject: Record<string, string>; baseline: Record<string, string> },
  watch: () => jest.SpyInstance,
): Promise<EadAppPair> {
  const subject = await createImportTestApp(env.subject);
  const baseline = await createImportTestApp(env.baseline);
  for (const t of [subject, baseline]) await addReferenceRepository(t);
  const watched = watch();
  const callsDuring = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const before = watched.mock.calls.length;
    const result = await work();
    return [result, watched.mock.calls.length - before];
  };
  return {
    subject,
    baseline,
    importBoth: async (body, status, query = {}, contentType) => {
      const [answer, subjectCalls] = await callsDuring(() =>
        importEadIntoR1(subject, body, query, contentType).expect(status),
      );
      const [expected, baselineCalls] = await callsDuring(() =>
        importEadIntoR1(baseline, body, query, contentType).expect(status),
      );
      expect(answerOf(answer.body)).toEqual(answerOf(expected.body));
      return { answer: answer.body as Record<string, unknown>, subjectCalls, baselineCalls };
    },
    close: async () => {
      watched.mockRestore();
      await Promise.all([subject.close(), baseline.close()]);
    },
  };
}

/**
 * The words of the portal search benchmark's generated archive and of its readers' queries: a
 * vocabulary of archival descriptions whose first words are the most frequent (Zipf, s = 1).
 */

/** Words of archival descriptions; in generated prose the first are the most frequent (Zipf). */
const VOCABULARY = (
  'records correspondence files letters reports lists minutes documents photographs registers council ' +
  'office administration department committee jewish camp ghetto deportation transport police court ' +
  'testimony survivors refugees emigration property confiscation restitution compensation orphanage ' +
  'hospital school community congregation rabbinate synagogue cemetery burial memorial commemoration ' +
  'resistance underground partisans prisoners labour forced internment liberation occupation military ' +
  'government ministry municipality province district county parish census population registration ' +
  'identity passports visas permits certificates birth marriage death wills estates inventories accounts ' +
  'ledgers receipts invoices budgets payments salaries pensions insurance bank assets securities shares ' +
  'amsterdam westerbork vught warsaw lodz krakow lublin berlin munich frankfurt hamburg paris drancy lyon ' +
  'marseille theresienstadt auschwitz sobibor treblinka belzec majdanek bergen belsen dachau buchenwald ' +
  'ravensbruck mauthausen sachsenhausen neuengamme stutthof plaszow janowska riga kaunas vilnius minsk ' +
  'cohen levi goldberg rosenberg friedman weiss schwartz katz kaplan klein horowitz blum stern wolf fischer ' +
  'newspapers clippings posters leaflets maps plans drawings films recordings interviews diaries memoirs ' +
  'manuscripts notebooks albums scrapbooks postcards telegrams circulars decrees ordinances regulations'
).split(' ');
export const CITIES = VOCABULARY.slice(VOCABULARY.indexOf('amsterdam'), VOCABULARY.indexOf('cohen'));

/** Cumulative Zipf (s = 1) weights of the vocabulary's ranks. */
const ZIPF_CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / sum));
})();

export function pick<T>(rand: () => number, values: readonly T[]): T {
  return values[Math.floor(rand() * values.length)];
}

/** Prose: words as frequent as their rank says, so a few occur almost everywhere and most rarely. */
export function prose(rand: () => number, count: number): string {
  return Array.from({ length: count }, () => {
    const draw = rand();
    const rank = ZIPF_CUMULATIVE.findIndex((cumulative) => draw <= cumulative);
    return VOCABULARY[rank === -1 ? VOCABULARY.length - 1 : rank];
  }).join(' ');
}

/** What readers type: one word, sometimes two, any word of the vocabulary alike. */
export function queryText(rand: () => number): string {
  const words = rand() < 0.7 ? [pick(rand, VOCABULARY)] : [pick(rand, VOCABULARY), pick(rand, VOCABULARY)];
  return encodeURIComponent(words.join(' '));
}

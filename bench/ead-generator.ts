/**
 * Writes a synthetic EAD 2002 finding aid of `units` units (the `archdesc` and its components),
 * `fanOut` children per unit and at most `depth` levels below the `archdesc`, streaming it to a
 * file. Each unit has what the components of a real finding aid have (modelled on `irn1351.xml`,
 * a USHMM finding aid of 2.9 KB a unit): two identifiers, title, date, extent, dimensions and
 * physical facets, language, acquisition, scope and content, access and use conditions, other
 * descriptive data, and subject, person, place and corporate body terms; pretty-printed, as
 * exported finding aids are. Units average some 2.9 KB.
 *
 *   node -r ts-node/register/transpile-only bench/ead-generator.ts <file> [units] [fanOut] [depth] [full|lean]
 */
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { OUT } from './support/bench-paths';

/**
 * Changes whenever the generated content does, so that a document cached under a name made from
 * its shape and this version is never one an older generator wrote.
 */
export const GENERATOR_VERSION = 2;

/**
 * `full` units carry what a real component carries (some 2.9 KB); `lean` ones only a reference,
 * title, date, extent, a sentence of scope and one subject (some 400 bytes), the shape of the
 * generated finding aids the issues about scale measure with.
 */
export type UnitSize = 'full' | 'lean';

export interface EadShape {
  units: number;
  fanOut: number;
  depth: number;
  unitSize?: UnitSize;
}

export const WORDS = (
  'correspondence minutes reports circulars memoranda registers photographs deportation ' +
  'administration committee council refugees emigration property restitution testimonies ' +
  'camp ghetto transport lists members community relief organisation survivors trial ' +
  'investigation press cuttings maps census orders instructions accounts receipts'
).split(' ');
export const PLACES = [
  'Amsterdam',
  'Westerbork',
  'Theresienstadt',
  'Warszawa',
  'Łódź',
  'Budapest',
  'Paris',
  'Kraków',
];
const PEOPLE = ['Jansen, Anna', 'Cohen, David', 'Müller, Hans', 'Kowalski, Jan', 'Lévy, Sarah', 'Weiss, Eva'];
const BODIES = [
  'Joodse Raad voor Amsterdam',
  'Judenrat Łódź',
  'American Jewish Joint Distribution Committee',
  'Kaiser-Wilhelm-Institut für Anthropologie, menschliche Erblehre und Eugenik',
];
const LANGUAGES = [
  ['ger', 'German'],
  ['dut', 'Dutch'],
  ['pol', 'Polish'],
  ['fre', 'French'],
  ['eng', 'English'],
];
const LEVELS = ['series', 'subseries', 'file', 'item'];
const RECORD_TYPES = ['Collection', 'Object', 'Folder', 'Item'];
/** Pretty-printing, as in exported finding aids. */
const INDENT = '  ';

/** A line of markup and its depth below the element it belongs to. */
type Line = readonly [depth: number, markup: string];

function indented(depth: number, lines: readonly Line[]): string {
  return lines.map(([below, markup]) => `${INDENT.repeat(depth + below)}${markup}\n`).join('');
}

/** A deterministic generator, so that every run writes the same document. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** The fewest levels below the `archdesc` that hold `units` at `fanOut`, and at least `least`. */
export function depthToHold(units: number, fanOut: number, least: number): number {
  let depth = 0;
  let held = 1;
  for (let level = 1; held < units || depth < least; depth++) {
    level *= fanOut;
    held += level;
  }
  return depth;
}

/** How many units each level holds: full levels, breadth first, until `units` are placed. */
export function levelSizes({ units, fanOut, depth }: EadShape): number[] {
  const sizes = [1];
  let placed = 1;
  while (placed < units) {
    if (sizes.length > depth) {
      throw new Error(`${units} units do not fit in ${depth} levels of fan-out ${fanOut}`);
    }
    const size = Math.min(sizes[sizes.length - 1] * fanOut, units - placed);
    sizes.push(size);
    placed += size;
  }
  return sizes;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

class UnitWriter {
  private readonly next = random(42);

  constructor(
    private readonly out: (text: string) => Promise<void>,
    private readonly size: UnitSize = 'full',
  ) {}

  private pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)];
  }

  private between(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  private words(count: number): string {
    return Array.from({ length: count }, () => this.pick(WORDS)).join(' ');
  }

  /** `low` to `high` sentences of 8 to 20 words. */
  private sentences(low: number, high: number): string {
    const sentences = Array.from({ length: this.between(low, high) }, () => this.words(this.between(12, 24)));
    return escape(`${sentences.join('. ')}.`);
  }

  private did(reference: string, accession: string): Line[] {
    const from = this.between(1900, 1959);
    const to = from + this.between(0, 9);
    const [code, language] = this.pick(LANGUAGES);
    return [
      [1, '<did>'],
      [2, `<unitid>${reference}</unitid>`],
      [2, `<unitid type="acc_num" label="Accession number">${accession}</unitid>`],
      [2, `<unittitle>${escape(this.words(5))} ${reference}</unittitle>`],
      [2, `<unitdate normal="${from}/${to}">${from}-${to}</unitdate>`],
      [2, '<physdesc>'],
      [3, `<extent>${this.between(1, 40)} folders</extent>`],
      [3, `<dimensions>overall: ${this.between(10, 60)} x ${this.between(10, 40)} cm</dimensions>`],
      [3, `<physfacet>${this.sentences(1, 3)}</physfacet>`],
      [2, '</physdesc>'],
      [2, `<langmaterial><language langcode="${code}">${language}</language></langmaterial>`],
      [1, '</did>'],
    ];
  }

  private notes(accession: string): Line[] {
    const paragraphs = Array.from({ length: this.between(1, 2) }, () => this.sentences(2, 4));
    const credit = `${escape(this.pick(BODIES))} collection, gift of ${escape(this.pick(PEOPLE))}`;
    return [
      [1, '<acqinfo>'],
      [2, `<p>Accession number: ${accession}</p>`],
      [2, `<p>Credit: ${credit}</p>`],
      [1, '</acqinfo>'],
      [1, '<scopecontent>'],
      ...paragraphs.map((paragraph): Line => [2, `<p>${paragraph}</p>`]),
      [1, '</scopecontent>'],
      [1, '<accessrestrict>'],
      [2, '<p>No restrictions on access</p>'],
      [1, '</accessrestrict>'],
      [1, '<userestrict>'],
      [2, '<p>No restrictions on use</p>'],
      [1, '</userestrict>'],
      [1, '<odd>'],
      [2, `<p>Record type: ${this.pick(RECORD_TYPES)}</p>`],
      [1, '</odd>'],
      [1, '<odd>'],
      [2, `<p>Classification: ${this.words(2)}</p>`],
      [1, '</odd>'],
      [1, '<controlaccess>'],
      [2, `<subject>${this.pick(WORDS)}</subject>`],
      [2, `<persname>${escape(this.pick(PEOPLE))}</persname>`],
      [2, `<geogname>${this.pick(PLACES)}</geogname>`],
      [2, `<corpname>${escape(this.pick(BODIES))}</corpname>`],
      [1, '</controlaccess>'],
    ];
  }

  private leanUnit(reference: string): Line[] {
    const from = this.between(1900, 1959);
    return [
      [1, '<did>'],
      [2, `<unitid>${reference}</unitid>`],
      [2, `<unittitle>${escape(this.words(4))} ${reference}</unittitle>`],
      [2, `<unitdate normal="${from}/${from + 5}">${from}-${from + 5}</unitdate>`],
      [2, `<physdesc><extent>${this.between(1, 40)} folders</extent></physdesc>`],
      [1, '</did>'],
      [1, `<scopecontent><p>${escape(this.words(this.between(8, 14)))}.</p></scopecontent>`],
      [1, `<controlaccess><subject>${this.pick(WORDS)}</subject></controlaccess>`],
    ];
  }

  /** A unit's start tag and its own content, the element at `depth`. */
  unitStart(element: string, level: number, reference: string, depth: number): string {
    const start = `<${element} level="${LEVELS[Math.min(level, LEVELS.length - 1)]}" id="u${reference}">`;
    if (this.size === 'lean') return indented(depth, [[0, start], ...this.leanUnit(reference)]);
    const accession = `1990.${level}.${this.between(1, 99_999)}`;
    return indented(depth, [[0, start], ...this.did(reference, accession), ...this.notes(accession)]);
  }

  /** Writes unit `index` of `level` and its descendants, depth first. */
  async unit(
    sizes: readonly number[],
    fanOut: number,
    level: number,
    index: number,
    reference: string,
  ): Promise<void> {
    const element = level === 0 ? 'archdesc' : level <= 12 ? `c${String(level).padStart(2, '0')}` : 'c';
    // `ead` at depth 0, `archdesc` at 1, its `dsc` at 2, then a level deeper each.
    const depth = level === 0 ? 1 : level + 2;
    await this.out(this.unitStart(element, level, reference, depth));
    const children = sizes[level + 1] ?? 0;
    const first = index * fanOut;
    if (first < children) {
      if (level === 0) await this.out(indented(2, [[0, '<dsc>']]));
      for (let child = first; child < Math.min(first + fanOut, children); child++) {
        await this.unit(sizes, fanOut, level + 1, child, `${reference}-${child - first + 1}`);
      }
      if (level === 0) await this.out(indented(2, [[0, '</dsc>']]));
    }
    await this.out(indented(depth, [[0, `</${element}>`]]));
  }
}

/** Writes the finding aid to `file`; resolves to its size in bytes. */
export async function writeEad(file: string, shape: EadShape): Promise<number> {
  const stream = createWriteStream(file);
  let buffer = '';
  const flush = async (): Promise<void> => {
    if (!stream.write(buffer)) await once(stream, 'drain');
    buffer = '';
  };
  const out = async (text: string): Promise<void> => {
    buffer += text;
    if (buffer.length >= 1 << 16) await flush();
  };
  await out(`<?xml version="1.0" encoding="UTF-8"?>
<ead xmlns="urn:isbn:1-931666-22-9">
<eadheader><eadid>BENCH-${shape.units}</eadid>
<filedesc><titlestmt><titleproper>Synthetic finding aid of ${shape.units} units</titleproper></titlestmt></filedesc>
<profiledesc><langusage><language langcode="eng">English</language></langusage><descrules>ISAD(G)</descrules></profiledesc>
</eadheader>
`);
  await new UnitWriter(out, shape.unitSize).unit(levelSizes(shape), shape.fanOut, 0, 0, 'BENCH');
  await out('</ead>\n');
  await flush();
  stream.end();
  await once(stream, 'finish');
  return stream.bytesWritten;
}

/** The document of `shape`, generated into `bench/out` once and kept there for later runs. */
export async function generatedEad(shape: EadShape): Promise<{ file: string; bytes: number }> {
  const { units, fanOut, depth, unitSize = 'full' } = shape;
  const file = path.join(OUT, `ead-${units}-${fanOut}-${depth}-${unitSize}-v${GENERATOR_VERSION}.xml`);
  await mkdir(OUT, { recursive: true });
  return { file, bytes: existsSync(file) ? statSync(file).size : await writeEad(file, shape) };
}

if (require.main === module) {
  const [file, units = '100000', fanOut = '10', depth = '5', unitSize = 'full'] = process.argv.slice(2);
  if (file === undefined || (unitSize !== 'full' && unitSize !== 'lean')) {
    console.error('usage: ead-generator.ts <file> [units] [fanOut] [depth] [full|lean]');
    process.exit(2);
  }
  const shape: EadShape = { units: Number(units), fanOut: Number(fanOut), depth: Number(depth), unitSize };
  writeEad(file, shape).then(
    (bytes) => console.log(JSON.stringify({ file, ...shape, bytes })),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

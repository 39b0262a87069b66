/**
 * Writes a synthetic EAD 2002 finding aid of `units` units (the `archdesc` and its components),
 * `fanOut` children per unit and at most `depth` levels below the `archdesc`, streaming it to a
 * file. Each unit has the content archivists' finding aids typically have: identifier, title,
 * date, extent, language, a scope and content paragraph, and subject, person and place terms.
 *
 *   node -r ts-node/register/transpile-only bench/ead-generator.ts <file> [units] [fanOut] [depth]
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface EadShape {
  units: number;
  fanOut: number;
  depth: number;
}

const WORDS = (
  'correspondence minutes reports circulars memoranda registers photographs deportation ' +
  'administration committee council refugees emigration property restitution testimonies ' +
  'camp ghetto transport lists members community relief organisation survivors trial ' +
  'investigation press cuttings maps census orders instructions accounts receipts'
).split(' ');
const PLACES = [
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
const LANGUAGES = [
  ['ger', 'German'],
  ['dut', 'Dutch'],
  ['pol', 'Polish'],
  ['fre', 'French'],
  ['eng', 'English'],
];
const LEVELS = ['series', 'subseries', 'file', 'item'];

/** A deterministic generator, so that every run writes the same document. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
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

  constructor(private readonly out: (text: string) => Promise<void>) {}

  private pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)];
  }

  private words(count: number): string {
    return Array.from({ length: count }, () => this.pick(WORDS)).join(' ');
  }

  unitStart(element: string, level: number, reference: string): string {
    const from = 1900 + Math.floor(this.next() * 60);
    const to = from + Math.floor(this.next() * 10);
    const [code, language] = this.pick(LANGUAGES);
    // Scope and content notes run from a few lines to several paragraphs (irn1351.xml, a real
    // finding aid, averages 2.9 KB a unit): here one paragraph of 40 to 200 words.
    const sentences = Array.from({ length: 2 + Math.floor(this.next() * 9) }, () =>
      this.words(12 + Math.floor(this.next() * 12)),
    );
    const paragraph = `${sentences.join('. ')}.`;
    return `<${element} level="${LEVELS[Math.min(level, LEVELS.length - 1)]}" id="u${reference}">
<did>
<unitid>${reference}</unitid>
<unittitle>${escape(this.words(5))} ${reference}</unittitle>
<unitdate normal="${from}/${to}">${from}-${to}</unitdate>
<physdesc><extent>${1 + Math.floor(this.next() * 40)} folders</extent></physdesc>
<langmaterial><language langcode="${code}">${language}</language></langmaterial>
</did>
<scopecontent><p>${escape(paragraph)}</p></scopecontent>
<controlaccess><subject>${this.pick(WORDS)}</subject><persname>${escape(this.pick(PEOPLE))}</persname><geogname>${this.pick(PLACES)}</geogname></controlaccess>
`;
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
    await this.out(this.unitStart(element, level, reference));
    const children = sizes[level + 1] ?? 0;
    const first = index * fanOut;
    if (first < children) {
      if (level === 0) await this.out('<dsc>\n');
      for (let child = first; child < Math.min(first + fanOut, children); child++) {
        await this.unit(sizes, fanOut, level + 1, child, `${reference}-${child - first + 1}`);
      }
      if (level === 0) await this.out('</dsc>\n');
    }
    await this.out(`</${element}>\n`);
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
  await new UnitWriter(out).unit(levelSizes(shape), shape.fanOut, 0, 0, 'BENCH');
  await out('</ead>\n');
  await flush();
  stream.end();
  await once(stream, 'finish');
  return stream.bytesWritten;
}

if (require.main === module) {
  const [file, units = '100000', fanOut = '10', depth = '5'] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: ead-generator.ts <file> [units] [fanOut] [depth]');
    process.exit(2);
  }
  const shape = { units: Number(units), fanOut: Number(fanOut), depth: Number(depth) };
  writeEad(file, shape).then(
    (bytes) => console.log(JSON.stringify({ file, ...shape, bytes })),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ImportInputError, ImportSource } from '../../formats/format-reader';
import { readXml, XmlContentHandler, XmlLocator } from './xml-parser';

/** Records each element's text (direct text only) and where it ended. */
class TextCollector implements XmlContentHandler<string> {
  private readonly open: { name: string; text: string }[] = [];
  private done: string[] = [];
  constructor(private readonly locator: XmlLocator) {}
  startElement(name: string, attributes: Readonly<Record<string, string>>): void {
    const attributeText = Object.entries(attributes).map(([key, value]) => ` ${key}=${value}`);
    this.open.push({ name: name + attributeText.join(''), text: '' });
  }
  text(text: string): void {
    const top = this.open[this.open.length - 1];
    if (top !== undefined) top.text += text;
  }
  endElement(): void {
    const element = this.open.pop()!;
    this.done.push(`${element.name}:${element.text.trim()}@${this.locator.line}:${this.locator.column}`);
  }
  drain(): string[] {
    const done = this.done;
    this.done = [];
    return done;
  }
}

function source(content: string | Buffer, chunkSize = 16): ImportSource & { chunksRead: number } {
  const bytes = Buffer.from(content);
  const result = {
    tag: 'doc.xml',
    chunksRead: 0,
    async *bytes() {
      for (let start = 0; start < bytes.length; start += chunkSize) {
        result.chunksRead += 1;
        yield bytes.subarray(start, start + chunkSize);
      }
    },
  };
  return result;
}

async function read(content: string | Buffer): Promise<string[]> {
  const events: string[] = [];
  for await (const event of readXml(source(content), (locator) => new TextCollector(locator)))
    events.push(event);
  return events;
}

async function inputError(content: string | Buffer): Promise<ImportInputError> {
  try {
    await read(content);
  } catch (error) {
    if (error instanceof ImportInputError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('readXml', () => {
  it('reports local names, attributes, text and CDATA, and the column after each end tag', async () => {
    const line2 = '  <ead:a x="1">A<![CDATA[<b>]]></ead:a>';
    const events = await read(`<ead:ead xmlns:ead="urn:isbn:1-931666-22-9">\n${line2}\n</ead:ead>`);
    expect(events).toEqual([
      `a x=1:A<b>@2:${line2.length + 1}`,
      `ead xmlns:ead=urn:isbn:1-931666-22-9:@3:${'</ead:ead>'.length + 1}`,
    ]);
  });

  it('yields what each chunk completes before reading the next', async () => {
    const input = source(`<root>${'<item>x</item>'.repeat(50)}</root>`, 32);
    const chunksReadAtEvents: number[] = [];
    for await (const _ of readXml(input, (locator) => new TextCollector(locator))) {
      chunksReadAtEvents.push(input.chunksRead);
    }
    expect(chunksReadAtEvents[0]).toBeLessThan(3);
    expect(input.chunksRead).toBeGreaterThan(20);
  });

  it('fails on truncated input with the tag, line and column', async () => {
    const error = await inputError('<ead>\n  <archdesc>\n    <did>');
    expect(error.where).toEqual({ tag: 'doc.xml', line: 3, column: 10 });
    expect(error.message).toMatch(/^Malformed XML in doc.xml at line 3, column 10: unclosed tag/);
  });

  it('fails on mismatched tags', async () => {
    const error = await inputError('<a>\n<b></a>');
    expect(error.where.line).toBe(2);
    expect(error.message).toContain('unexpected close tag');
  });

  it('fails on bytes that are not valid in the declared encoding, naming where the parser got to', async () => {
    const error = await inputError(
      Buffer.concat([Buffer.from('<a>\n<b>'), Buffer.from([0xff]), Buffer.from('</b></a>')]),
    );
    expect(error.message).toContain('not valid UTF-8');
    expect(error.where.tag).toBe('doc.xml');
  });

  it('reads a document with a DOCTYPE naming an external DTD without fetching it', async () => {
    const events = await read(
      '<!DOCTYPE ead PUBLIC "+//ISBN 1-931666-00-8//DTD ead.dtd//EN" "http://127.0.0.1:1/ead.dtd">\n<ead>x</ead>',
    );
    expect(events).toEqual(['ead:x@2:13']);
  });
});

describe('readXml entities', () => {
  it('expands internal entities, nested ones and character references', async () => {
    const events = await read(
      '<!DOCTYPE a [\n<!-- <!ENTITY org "commented out"> -->\n<!ENTITY org "NIOD &amp; &place;&#33;">' +
        '<!ENTITY place \'Amsterdam\'><!ENTITY org "second declaration loses">]>\n<a t="&org;">&org;</a>',
    );
    expect(events).toEqual([
      `a t=NIOD & Amsterdam!:NIOD & Amsterdam!@4:${'<a t="&org;">&org;</a>'.length + 1}`,
    ]);
  });

  it('treats an undeclared entity as malformed input', async () => {
    const error = await inputError('<a>&nbsp;</a>');
    expect(error.message).toContain('undefined entity');
  });

  it('never reads an external entity: its references expand to nothing', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'xxe-'));
    try {
      const secret = path.join(directory, 'secret.txt');
      await writeFile(secret, 'TOP SECRET');
      const events = await read(
        `<!DOCTYPE a [<!ENTITY xxe SYSTEM "file://${secret}"><!ENTITY remote PUBLIC "-//X//EN" "http://127.0.0.1:1/x">]>` +
          '<a>before &xxe;&remote; after</a>',
      );
      expect(events).toHaveLength(1);
      expect(events[0]).toMatch(/^a:before {2}after@/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stops a "billion laughs" document at the expansion limit', async () => {
    const declarations = ['<!ENTITY lol0 "lol">'];
    for (let level = 1; level <= 9; level++) {
      declarations.push(`<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`);
    }
    const error = await inputError(`<!DOCTYPE a [${declarations.join('')}]>\n<a>&lol9;</a>`);
    expect(error.message).toContain('Entity expansion limit exceeded');
    expect(error.where.line).toBe(2);
  });

  it('stops a document that repeats one large entity past the expansion limit', async () => {
    const large = 'x'.repeat(100_000);
    const error = await inputError(`<!DOCTYPE a [<!ENTITY big "${large}">]><a>${'&big;'.repeat(101)}</a>`);
    expect(error.message).toContain('characters of expanded entities');
  });

  it('refuses a recursive entity', async () => {
    const error = await inputError('<!DOCTYPE a [<!ENTITY x "&y;"><!ENTITY y "&x;">]><a>&x;</a>');
    expect(error.message).toContain('Recursive entity reference');
  });
});

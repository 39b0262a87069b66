import { ImportSource } from '../../formats/format-reader';
import { MappedXmlHandler, OpenElement } from './mapped-xml-handler';
import { RawNode } from '../../building/raw-node';
import { XmlMapping } from './xml-mapping';
import { readXml } from './xml-parser';
import { chunkedSource } from '../../../../test/support/chunked-source';

/** Emits the root element's node; records each element's role as it starts. */
class RootHandler extends MappedXmlHandler<RawNode, string> {
  readonly started: string[] = [];
  readonly roleCalls: string[] = [];

  constructor(mapping: XmlMapping) {
    super(mapping, { line: 1, column: 1 });
  }

  protected opensSubNode(): boolean {
    return false;
  }

  protected override elementRole(name: string): string {
    this.roleCalls.push(name);
    return name.toUpperCase();
  }

  protected elementStarted(element: OpenElement<string>): void {
    this.started.push(`${this.path.join('/')}=${element.role}`);
  }

  protected elementEnded(): void {
    if (this.path.length === 1) this.emit(this.currentNode);
  }
}

function source(content: string, chunkSize: number): ImportSource {
  return chunkedSource(content, 'doc.xml', chunkSize);
}

async function read(
  content: string,
  mapping: string,
  chunkSize = 1 << 16,
): Promise<{ values: Record<string, unknown>; handler: RootHandler }> {
  let handler: RootHandler | undefined;
  const nodes: RawNode[] = [];
  const parsed = XmlMapping.parse(mapping);
  for await (const node of readXml(source(content, chunkSize), () => (handler = new RootHandler(parsed)))) {
    nodes.push(node);
  }
  expect(nodes).toHaveLength(1);
  return { values: Object.fromEntries(nodes[0].values), handler: handler! };
}

describe('MappedXmlHandler', () => {
  it('maps elements by path whatever the order of siblings and the parent of a name', async () => {
    const { values, handler } = await read(
      '<r><a><x>1</x><y>2</y></a><a><y>3</y><x>4</x></a><b><x>5</x><y>6</y></b><a><x>7</x><x>8</x></a>' +
        '<b><y>9</y></b></r>',
      'a/x/=ax\na/y/=ay\nb/x/=bx\n',
    );
    expect(values).toEqual({ ax: ['1', '4', '7', '8'], ay: ['2', '3'], bx: '5', UNKNOWN_r_b_y_: ['6', '9'] });
    expect(handler.started).toEqual([
      'r=R',
      ...['r/a=A', 'r/a/x=X', 'r/a/y=Y', 'r/a=A', 'r/a/y=Y', 'r/a/x=X'],
      ...['r/b=B', 'r/b/x=X', 'r/b/y=Y', 'r/a=A', 'r/a/x=X', 'r/a/x=X', 'r/b=B', 'r/b/y=Y'],
    ]);
    // Once per element path, not per element.
    expect(handler.roleCalls).toEqual(['r', 'a', 'x', 'y', 'b', 'x', 'y']);
  });

  it('keeps blank text between children as one space, and other white space as text', async () => {
    const document = [
      '<r>',
      '<p>a<b/>\n\t \r\n<b/>c</p>',
      // Not blank to XML: no-break and other Unicode spaces, as text or as references.
      '<p>d<b/>&#160;<b/>e</p>',
      '<p>f<b/>\u2003\u3000<b/>g</p>',
      '<p>h<b/>\u2007<b/>i</p>',
      // An empty section is blank; a section of spaces, blank too.
      '<p>j<![CDATA[]]>k</p>',
      '<p>l<![CDATA[  ]]>m</p>',
      '<p>  <b/>\n  n \n <b/>  </p>',
      '<p>\ud83d\ude00<b/> <b/>\ud83d\ude01</p>',
      '</r>',
    ].join('\n  ');
    const expected = ['a c', 'd e', 'f g', 'h\u2007i', 'j k', 'l m', 'n', '\ud83d\ude00 \ud83d\ude01'];
    for (const chunkSize of [1, 2, 3, 5, 8, 64]) {
      const { values } = await read(document, 'r/p/=p\n', chunkSize);
      expect(values).toEqual({ p: expected });
    }
  });
});

import { decodeXml, detectEncoding, XmlDecodingError } from './xml-encoding';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function decodeAll(bytes: Uint8Array, chunkSize = 3): Promise<string> {
  let text = '';
  for await (const part of decodeXml(chunked(bytes, chunkSize))) text += part;
  return text;
}

function utf16be(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

describe('detectEncoding', () => {
  it.each([
    ['a UTF-8 byte order mark', Buffer.from([0xef, 0xbb, 0xbf, 0x3c]), 'UTF-8'],
    ['a UTF-16LE byte order mark', Buffer.from([0xff, 0xfe, 0x3c, 0x00]), 'UTF-16LE'],
    ['a UTF-16BE byte order mark', Buffer.from([0xfe, 0xff, 0x00, 0x3c]), 'UTF-16BE'],
    ['UTF-16LE without a mark', Buffer.from('<?xml', 'utf16le'), 'UTF-16LE'],
    ['UTF-16BE without a mark', utf16be('<?xml'), 'UTF-16BE'],
    ['no declaration', Buffer.from('<ead>'), 'UTF-8'],
    ['a declaration without encoding', Buffer.from('<?xml version="1.0"?><ead>'), 'UTF-8'],
    ['ISO-8859-1', Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>'), 'ISO-8859-1'],
    ['latin1 in single quotes', Buffer.from("<?xml version='1.0' encoding='latin1'?>"), 'ISO-8859-1'],
    ['Windows-1252', Buffer.from('<?xml version="1.0" encoding="Windows-1252"?>'), 'windows-1252'],
    ['US-ASCII', Buffer.from('<?xml version="1.0" encoding="US-ASCII"?>'), 'UTF-8'],
    [
      'another encoding the platform knows',
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-2"?>'),
      'ISO-8859-2',
    ],
  ])('reads %s', (_, head, name) => {
    expect(detectEncoding(head).name).toBe(name);
  });

  it('refuses an encoding it cannot decode', () => {
    expect(() => detectEncoding(Buffer.from('<?xml version="1.0" encoding="x-klingon"?>'))).toThrow(
      new XmlDecodingError('Unsupported encoding: x-klingon'),
    );
  });

  it('refuses a UTF-16 declaration on single-byte text', () => {
    expect(() => detectEncoding(Buffer.from('<?xml version="1.0" encoding="UTF-16"?>'))).toThrow(
      XmlDecodingError,
    );
  });
});

describe('decodeXml', () => {
  const text = '<ead>Zürich – “Łódź” 🗄️ €</ead>';

  it('decodes UTF-8 whose characters are split between chunks, dropping the byte order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    for (const size of [1, 2, 3, 5, 1024]) expect(await decodeAll(bytes, size)).toBe(text);
  });

  it('decodes UTF-16 in either byte order', async () => {
    expect(await decodeAll(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(
      text,
    );
    expect(await decodeAll(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]))).toBe(text);
  });

  it('decodes ISO-8859-1 byte for byte and Windows-1252 with its own characters in 0x80–0x9F', async () => {
    const body = Buffer.from([0x3c, 0x61, 0x3e, 0x80, 0x93, 0xe9, 0x3c, 0x2f, 0x61, 0x3e]);
    const latin1 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>'), body]);
    const cp1252 = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="windows-1252"?>'), body]);
    expect(await decodeAll(latin1)).toMatch(/<a>\u0080\u0093é<\/a>$/);
    expect(await decodeAll(cp1252)).toMatch(/<a>€“é<\/a>$/);
  });

  it('decodes a document shorter than the detection window', async () => {
    expect(await decodeAll(Buffer.from('<a/>'), 1)).toBe('<a/>');
    expect(await decodeAll(Buffer.from(''))).toBe('');
  });

  it('fails on bytes that are not valid UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('<a>'), Buffer.from([0xc3, 0x28]), Buffer.from('</a>')]);
    await expect(decodeAll(bytes)).rejects.toThrow(new XmlDecodingError('The document is not valid UTF-8'));
  });
});

/** Markup written as text: escaping, and elements that hold text. */

// Characters XML 1.0 cannot carry, even escaped (C0 controls but tab and line ends, U+FFFE, U+FFFF,
// lone surrogates): dropped, since one of them would make the whole answer unreadable to a parser.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the control characters XML forbids
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeText(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeText(text)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

export type Attributes = readonly (readonly [name: string, value: string])[];

export function startTag(name: string, attributes: Attributes = []): string {
  return `<${name}${attributes.map(([attribute, value]) => ` ${attribute}="${escapeAttribute(value)}"`).join('')}>`;
}

/** `<name attributes>text</name>`. */
export function textElement(name: string, text: string, attributes: Attributes = []): string {
  return `${startTag(name, attributes)}${escapeText(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';

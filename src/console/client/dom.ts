/** A small element builder: the console writes text through it, never HTML, so nothing is injected. */
type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Replaces what `parent` shows. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

export function messageBox(text: string, kind: 'info' | 'error' = 'info'): HTMLElement {
  return el('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** A time as the reader's locale writes it, with the ISO text as its machine-readable value. */
export function time(iso: string | null | undefined): Node {
  if (!iso) return document.createTextNode('—');
  return el('time', { datetime: iso }, new Date(iso).toLocaleString());
}

/** Seconds as `1 h 2 min`, `3 min 4 s` or `5 s`. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${whole % 60} s`;
  return `${whole} s`;
}

/**
 * A table whose rows stack into labelled cards on a narrow screen (each cell carries its column's
 * name for the style sheet to show), so that a phone needs no sideways scrolling.
 */
export function table(headers: string[], rows: Node[][], caption?: string): HTMLElement {
  return el(
    'div',
    { class: 'table-wrap stacks' },
    el(
      'table',
      {},
      caption ? el('caption', { class: 'visually-hidden' }, caption) : null,
      el('thead', {}, el('tr', {}, ...headers.map((header) => el('th', { scope: 'col' }, header)))),
      el(
        'tbody',
        {},
        ...rows.map((cells) =>
          el('tr', {}, ...cells.map((cell, index) => el('td', { 'data-label': headers[index] }, cell))),
        ),
      ),
    ),
  );
}

import { el, table } from './dom.js';
import { FieldChange, ItemChanges } from './types.js';
import { fieldWords, pathWords } from './words.js';

/** The console's own view of an item as one import saw it: signed-in operators can open it. */
export function itemHref(logId: string, item: string): string {
  return `/console/logs/${encodeURIComponent(logId)}/items/${encodeURIComponent(item)}`;
}

export function itemLink(logId: string, item: string): HTMLElement {
  return el('a', { href: itemHref(logId, item), class: 'id' }, item);
}

function valueText(value: unknown): HTMLElement {
  if (value === undefined) return el('span', { class: 'visually-hidden' }, 'none');
  return el('pre', { class: 'value' }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

function changeRow(change: FieldChange): Node[] {
  return [
    // The internal path stays at hand for a report, in a tooltip and for scripts.
    el('span', { class: 'where', title: change.path, 'data-path': change.path }, pathWords(change.path)),
    document.createTextNode(change.change),
    el('div', { class: change.before === undefined ? '' : 'change-before' }, valueText(change.before)),
    el('div', { class: change.after === undefined ? '' : 'change-after' }, valueText(change.after)),
  ];
}

/** One item's changes, where each is in plain words, before and after side by side. */
export function changesTable(changes: ItemChanges): HTMLElement {
  return table(
    ['What', 'Change', 'Before', 'After'],
    changes.changes.map(changeRow),
    `Changes to ${fieldWords(changes.type).toLowerCase()} ${changes.item}`,
  );
}

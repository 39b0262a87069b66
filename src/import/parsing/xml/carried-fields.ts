import { PROTOTYPE_KEY } from '../../../items/bundle';
import { RawNode } from '../../building/raw-node';
import { OpenElement } from './mapped-xml-handler';

/**
 * What the service's own EAG and EAC-CPF exports (`src/export/`) tell their importers beyond the
 * standard's elements, so that importing an export gives back the item it was made from. Each is
 * a `localControl` with one `term` (EAC-CPF) or an `otherRecordId` (EAG 2012, whose `localControl`
 * terms are from a closed list), its `localType` saying what the text is:
 *
 * - `localType="ehri:field:<field>"`: the term is a value of that raw field (a field the format
 *   has no element for, or an unmapped one, `UNKNOWN_…`);
 * - `localType="ehri:node:<field>:<n>:<subfield>"`: a value of the n-th `<field>` sub-node
 *   (maintenance events, dates, relations the standard's elements cannot hold as stored);
 * - `localType="ehri:generated"`: the term names a raw field (or sub-node field) that the export
 *   made up only because the schema requires it, dropped again when the record ends.
 */
export const CARRIED_FIELD = 'ehri:field:';
export const CARRIED_NODE = 'ehri:node:';
export const GENERATED = 'ehri:generated';

/** Raw fields a carrier's term goes to while the record is read; never description fields. */
const STAGED_PREFIX = 'IGNORE_carried\u0000';
const GENERATED_FIELD = 'IGNORE_generated';
/** `<sub-node field>:<index>:<field>`. */
const NODE_CARRIER = /^[^:]+:\d+:.+$/;

function stagedField(localType: string | undefined): string | undefined {
  if (localType === GENERATED) return GENERATED_FIELD;
  if (localType === undefined) return undefined;
  let field: string;
  if (localType.startsWith(CARRIED_FIELD)) field = localType.slice(CARRIED_FIELD.length);
  else if (localType.startsWith(CARRIED_NODE) && NODE_CARRIER.test(localType.slice(CARRIED_NODE.length)))
    field = localType.slice(CARRIED_NODE.length);
  else return undefined;
  return field !== '' && !field.split(':').includes(PROTOTYPE_KEY)
    ? `${STAGED_PREFIX}${localType}`
    : undefined;
}

/** The carriers of one record, as a mapped handler reads it. */
export class CarriedFields {
  /** The staging field of the `localControl` open last, when it is a carrier. */
  private staged: string | undefined;

  /** Called as each element starts: a carrier's text is read into its staging field. */
  started(
    path: readonly string[],
    element: OpenElement<unknown>,
    attributes: Readonly<Record<string, string>>,
  ) {
    if (element.name === 'localControl') {
      this.staged = stagedField(attributes.localType);
    } else if (element.name === 'term' && path[path.length - 2] === 'localControl') {
      if (this.staged !== undefined) element.textField = this.staged;
    } else if (element.name === 'otherRecordId') {
      const staged = stagedField(attributes.localType);
      if (staged !== undefined) element.textField = staged;
    }
  }

  /** Called when the record ends: drops what the export made up, then sets what it carried. */
  finish(node: RawNode): void {
    for (const field of node.all(GENERATED_FIELD)) {
      node.values.delete(field);
      node.removeSubNodes(field);
    }
    node.values.delete(GENERATED_FIELD);
    const subNodes = new Map<string, RawNode>();
    for (const [staged, value] of [...node.values]) {
      if (!staged.startsWith(STAGED_PREFIX)) continue;
      node.values.delete(staged);
      const localType = staged.slice(STAGED_PREFIX.length);
      const values = typeof value === 'string' ? [value] : value;
      if (localType.startsWith(CARRIED_FIELD)) {
        for (const text of values) node.putNormalised(localType.slice(CARRIED_FIELD.length), text);
        continue;
      }
      const [field, index, subField] = splitNodeCarrier(localType.slice(CARRIED_NODE.length));
      const key = `${field}:${index}`;
      let subNode = subNodes.get(key);
      if (subNode === undefined) {
        subNode = new RawNode();
        subNodes.set(key, subNode);
      }
      for (const text of values) subNode.putNormalised(subField, text);
    }
    const ordered = [...subNodes].sort(([a], [b]) => compareNodeKeys(a, b));
    for (const [key, subNode] of ordered) node.addSubNode(key.slice(0, key.lastIndexOf(':')), subNode);
  }
}

/** `MaintenanceEvent:0:agent` → field, index, sub-field (a sub-field may hold colons itself). */
function splitNodeCarrier(text: string): [string, number, string] {
  const [field, index, ...rest] = text.split(':');
  return [field, Number(index), rest.join(':')];
}

function compareNodeKeys(a: string, b: string): number {
  const [fieldA, indexA] = [a.slice(0, a.lastIndexOf(':')), Number(a.slice(a.lastIndexOf(':') + 1))];
  const [fieldB, indexB] = [b.slice(0, b.lastIndexOf(':')), Number(b.slice(b.lastIndexOf(':') + 1))];
  return fieldA < fieldB ? -1 : fieldA > fieldB ? 1 : indexA - indexB;
}

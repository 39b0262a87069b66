import { hash } from 'node:crypto';
import { RawNode } from '../../building/raw-node';
import { EadUnit } from '../../building/unit-builder';

/**
 * The build of documents into units, and of units into items, that stored unit hashes vouch for.
 * Raise it with any change that makes the same document, read with the same settings, read into
 * other units or build into other items (this folder, the builders and extraction in `shared/`,
 * the identifier rules): a hash from an older build must not pass an item for unchanged.
 * `unit-hash.spec.ts` fails until it is raised.
 */
export const UNIT_BUILD = 2;

function lengthPrefixed(text: string): string {
  return `${text.length}:${text}`;
}

/**
 * One unambiguous text per node, fields in the order they were read (a document read again reads
 * them in the same order): every string length-prefixed, a list marked `a`, a field of sub-nodes
 * `n`, the node's end `;`. Half the cost of `JSON.stringify` on nested lists, which escapes.
 */
function nodeText(node: RawNode): string {
  let text = '';
  for (const [field, value] of node.values) {
    text += lengthPrefixed(field);
    if (typeof value === 'string') {
      text += lengthPrefixed(value);
    } else {
      text += `a${value.length}:`;
      for (const item of value) text += lengthPrefixed(item);
    }
  }
  for (const [field, nodes] of node.subNodes) {
    text += `n${lengthPrefixed(field)}${nodes.length}:`;
    for (const subNode of nodes) text += nodeText(subNode);
  }
  return `${text};`;
}

/**
 * The change hash (`ItemProduced.hash`) of units read with `settings` (plain data): a hash of
 * what a unit's item is built from, and of the build, not of the item. Two units with the same
 * hash build the same item with the same edges, so a unit found with its stored hash need not be
 * built at all. Where the unit ends in the document (`line`, `column`) is left out: it only
 * places messages, and moving a unit does not change it.
 */
export function unitHasher(settings: unknown): (unit: EadUnit) => string {
  const seed = hash('sha256', JSON.stringify([UNIT_BUILD, settings]), 'base64url');
  return ({ node, localId, id, parentId, ancestorIds, maintenanceEvents }) => {
    // The head is small, and its JSON ends where the node's text begins.
    const head = JSON.stringify([seed, localId, id, parentId ?? null, ancestorIds, maintenanceEvents]);
    return hash('sha256', head + nodeText(node), 'base64url');
  };
}

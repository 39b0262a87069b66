import { TableRow } from '../../parsing/tabular/table-rows';
import { isLinkType, LINK_TYPES, LinkSpec } from '../../building/link-builder';

/** The reference's columns of a link row (`LinkImporter`), in order. */
export const LINK_COLUMNS = ['source ID', 'target ID', 'access point ID', 'type', 'field', 'description'];

/** A row read as a link, or what is wrong with it. */
export type LinkRow = { row: number; spec: LinkSpec } | { row: number; problem: string };

function optional(cell: string): string | undefined {
  return cell === '' ? undefined : cell;
}

function endsProblem(source: string, target: string): string | undefined {
  if (source === '') return 'the source ID (column 1) is empty';
  if (target === '') return 'the target ID (column 2) is empty';
  if (source === target) return `the source and the target are the same item (${source})`;
  return undefined;
}

/** A table row as a link, checked for what the row alone can tell (not whether its items exist). */
export function linkRow({ row, cells }: TableRow): LinkRow {
  if (cells.length !== LINK_COLUMNS.length) {
    const columns = LINK_COLUMNS.join(', ');
    return {
      row,
      problem: `a link row has ${LINK_COLUMNS.length} columns (${columns}; leave a cell empty where it does not apply), this one has ${cells.length}`,
    };
  }
  const [source, target, accessPoint, type, field, description] = cells;
  const problem = endsProblem(source, target);
  if (problem !== undefined) return { row, problem };
  if (!isLinkType(type)) {
    return { row, problem: `type (column 4) "${type}" is not one of ${LINK_TYPES.join(', ')}` };
  }
  const spec: LinkSpec = {
    ends: [source, target],
    accessPoint: optional(accessPoint),
    type,
    field: optional(field),
    description: optional(description),
  };
  return { row, spec };
}

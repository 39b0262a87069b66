/**
 * Materialised ancestor paths. An item's path is its ancestors' ids, root first, each followed by
 * SEPARATOR; the items below X are those whose path starts with `path(X) + X + SEPARATOR`, which
 * is one range of the path index. Ids must not contain the separator (a control character).
 */
export const PATH_SEPARATOR = '\u001f';
/** The character after the separator: prefix-minus-separator + this bounds the range above. */
const AFTER_SEPARATOR = '\u0020';

/** The path of the children of `parentId`, whose own path is `parentPath`. */
export function pathBelow(parentPath: string, parentId: string): string {
  return `${parentPath}${parentId}${PATH_SEPARATOR}`;
}

/** The half-open range of paths that start with `prefix` (which ends with the separator). */
export function pathRange(prefix: string): { from: string; to: string } {
  return { from: prefix, to: `${prefix.slice(0, -1)}${AFTER_SEPARATOR}` };
}

/** Whether `id` is one of the ancestors listed in `path`. */
export function pathContains(path: string, id: string): boolean {
  return `${PATH_SEPARATOR}${path}`.includes(`${PATH_SEPARATOR}${id}${PATH_SEPARATOR}`);
}

export function assertPathSafeId(id: string): void {
  if (id.includes(PATH_SEPARATOR))
    throw new Error(`An item id must not contain U+001F: ${JSON.stringify(id)}`);
}

import { RawNode } from './raw-node';

/**
 * Raw nodes as they cross threads: flat lists of strings and numbers, which structured clone
 * copies much faster than a node's maps. A node is the count of its fields, then each field's name
 * and value (a list as its length and its values), then the count of its sub-node fields, each
 * with its name, its count of nodes and the nodes.
 *
 * A field name is written as text the first time, and as its number (in order of first use) after
 * that: a reading's nodes repeat a few dozen names, which then cross once, and the reading side
 * keeps one string per name. So one writer's nodes must be read by one reader, in order.
 */
export class FlatNodeWriter {
  private readonly fieldNumbers = new Map<string, number>();

  /** Appends `node` to `flat`, and returns `flat`. */
  write(node: RawNode, flat: unknown[]): unknown[] {
    flat.push(node.values.size);
    for (const [field, value] of node.values) {
      flat.push(this.field(field));
      if (typeof value === 'string') flat.push(value);
      else flat.push(value.length, ...value);
    }
    flat.push(node.subNodes.size);
    for (const [field, nodes] of node.subNodes) {
      flat.push(this.field(field), nodes.length);
      for (const subNode of nodes) this.write(subNode, flat);
    }
    return flat;
  }

  private field(name: string): string | number {
    const number = this.fieldNumbers.get(name);
    if (number !== undefined) return number;
    this.fieldNumbers.set(name, this.fieldNumbers.size);
    return name;
  }
}

/** Reads the nodes one `FlatNodeWriter` wrote, in the order it wrote them. */
export class FlatNodeReader {
  private readonly fieldNames: string[] = [];
  private flat: readonly unknown[] = [];
  private next = 0;

  /** The node written into `flat` from `start`. */
  read(flat: readonly unknown[], start: number): RawNode {
    this.flat = flat;
    this.next = start;
    const node = this.node();
    // Not to keep the list alive until the next one.
    this.flat = [];
    return node;
  }

  private node(): RawNode {
    const node = new RawNode();
    for (let fields = this.count(); fields > 0; fields--) {
      const field = this.field();
      const value = this.flat[this.next++] as string | number;
      node.values.set(field, typeof value === 'string' ? value : this.texts(value));
    }
    for (let fields = this.count(); fields > 0; fields--) {
      const field = this.field();
      for (let nodes = this.count(); nodes > 0; nodes--) node.addSubNode(field, this.node());
    }
    return node;
  }

  private field(): string {
    const field = this.flat[this.next++] as string | number;
    if (typeof field === 'number') return this.fieldNames[field];
    this.fieldNames.push(field);
    return field;
  }

  private texts(count: number): string[] {
    const texts = this.flat.slice(this.next, this.next + count) as string[];
    this.next += count;
    return texts;
  }

  private count(): number {
    return this.flat[this.next++] as number;
  }
}

import { FlatReader, NameWriter } from './flat-lists';
import { RawNode } from '../building/raw-node';

/**
 * Raw nodes as they cross threads, as flat lists (`flat-lists.ts`). A node is the count of its
 * fields, then each field's name and value (a list as its length and its values), then the count of
 * its sub-node fields, each with its name, its count of nodes and the nodes.
 */
export class FlatNodeWriter {
  private readonly names = new NameWriter();

  /** Appends `node` to `flat`, and returns `flat`. */
  write(node: RawNode, flat: unknown[]): unknown[] {
    flat.push(node.values.size);
    for (const [field, value] of node.values) {
      flat.push(this.names.write(field));
      if (typeof value === 'string') flat.push(value);
      else flat.push(value.length, ...value);
    }
    flat.push(node.subNodes.size);
    for (const [field, nodes] of node.subNodes) {
      flat.push(this.names.write(field), nodes.length);
      for (const subNode of nodes) this.write(subNode, flat);
    }
    return flat;
  }
}

/** Reads the nodes one `FlatNodeWriter` wrote, in the order it wrote them. */
export class FlatNodeReader extends FlatReader<RawNode> {
  protected decode(): RawNode {
    const node = new RawNode();
    for (let fields = this.count(); fields > 0; fields--) {
      const field = this.name();
      const value = this.take() as string | number;
      node.values.set(field, typeof value === 'string' ? value : (this.list(value) as string[]));
    }
    for (let fields = this.count(); fields > 0; fields--) {
      const field = this.name();
      for (let nodes = this.count(); nodes > 0; nodes--) node.addSubNode(field, this.decode());
    }
    return node;
  }
}

import { Bundle, Props, PROTOTYPE_KEY } from '../../items/bundle';
import { NodeType } from '../../items/item-types';
import { ItemProduced } from '../formats/read-events';
import { FlatReader, NameWriter } from './flat-lists';

type Edges = NonNullable<ItemProduced['write']['edges']>;

/** How a property is when an object literal has it. */
const OWN = { enumerable: true, writable: true, configurable: true };

/**
 * Built items as they cross threads, as flat lists (`flat-lists.ts`), which the reading side turns
 * back into the same events: the same values, keys present or absent alike, in the same order (it
 * is the order of the stored JSON).
 *
 * An item is its tag (a name), its hash, its edges, its ancestors, then its bundle. Ancestors are
 * `true` when they are those of the last item that had some (siblings share them), else their count
 * and ids. A bundle is its id, its type (a name), the count of its data keys, each with its name
 * and value, then the count of its relations, each with its name and bundles. Edges are the count
 * of their types, each with its name and targets. A value is a string or boolean as itself, a list
 * as its length and its values, and any other (a number, or what no type allows, such as
 * `undefined`) in a list of its own. A list of bundles or an object of edges is its count too, and
 * any other value a list of its own. An optional field that is absent (an item's hash, edges or
 * ancestors) is `undefined`.
 */
export class FlatItemWriter {
  private readonly names = new NameWriter();
  private lastAncestors?: readonly string[];

  /** Appends `item` to `flat`, and returns `flat`. */
  write(item: ItemProduced, flat: unknown[]): unknown[] {
    const { write } = item;
    flat.push(this.names.write(item.tag));
    if ('hash' in item) this.value(item.hash, flat);
    else flat.push(undefined);
    if ('edges' in write) this.edges(write.edges, flat);
    else flat.push(undefined);
    this.ancestors(write.ancestors, flat);
    this.bundle(write.bundle, flat);
    return flat;
  }

  private ancestors(ancestors: readonly string[] | undefined, flat: unknown[]): void {
    if (ancestors === undefined) {
      flat.push(undefined);
    } else if (ancestors === this.lastAncestors) {
      flat.push(true);
    } else {
      flat.push(ancestors.length, ...ancestors);
      this.lastAncestors = ancestors;
    }
  }

  private bundle(bundle: Bundle, flat: unknown[]): void {
    flat.push(bundle.id, this.names.write(bundle.type));
    this.object(bundle.data, flat, this.value);
    this.object(bundle.relations, flat, this.bundles);
  }

  private bundles(bundles: Bundle[] | undefined, flat: unknown[]): void {
    if (!Array.isArray(bundles)) {
      flat.push([bundles]);
      return;
    }
    flat.push(bundles.length);
    for (const bundle of bundles) this.bundle(bundle, flat);
  }

  private edges(edges: Edges | undefined, flat: unknown[]): void {
    if (typeof edges === 'object' && edges !== null) this.object(edges, flat, this.value);
    else flat.push([edges]);
  }

  /** The count of `object`'s keys, then each key's name and its value, as `value` writes it. */
  private object<V>(
    object: Partial<Record<string, V>>,
    flat: unknown[],
    value: (this: FlatItemWriter, value: V | undefined, flat: unknown[]) => void,
  ): void {
    // The count is written once known: `for…in` costs less than listing the keys first.
    const countAt = flat.push(0) - 1;
    let count = 0;
    for (const key in object) {
      flat.push(this.names.write(key));
      value.call(this, object[key], flat);
      count++;
    }
    flat[countAt] = count;
  }

  private value(value: unknown, flat: unknown[]): void {
    if (typeof value === 'string' || typeof value === 'boolean') {
      flat.push(value);
    } else if (Array.isArray(value)) {
      flat.push(value.length);
      for (const element of value as unknown[]) flat.push(element);
    } else {
      flat.push([value]);
    }
  }
}

/** Reads the items one `FlatItemWriter` wrote, in the order it wrote them. */
export class FlatItemReader extends FlatReader<ItemProduced> {
  private lastAncestors?: readonly string[];

  protected decode(): ItemProduced {
    const tag = this.name();
    const hashSlot = this.take();
    const hash = hashSlot === undefined ? undefined : this.value(hashSlot);
    const edgesSlot = this.take();
    const edges = edgesSlot === undefined ? undefined : (this.edges(edgesSlot) as Edges);
    const ancestors = this.ancestors();
    const bundle = this.bundle();
    const write: ItemProduced['write'] = edgesSlot === undefined ? { bundle } : { bundle, edges };
    if (ancestors !== undefined) write.ancestors = ancestors;
    const item: ItemProduced = { kind: 'item', tag, write };
    if (hashSlot !== undefined) item.hash = hash as string;
    return item;
  }

  private ancestors(): readonly string[] | undefined {
    const slot = this.take();
    if (slot === undefined) return undefined;
    if (slot !== true) this.lastAncestors = this.list(slot as number) as string[];
    return this.lastAncestors;
  }

  private bundle(): Bundle {
    const id = this.take() as string;
    const type = this.name() as NodeType;
    const data = this.object(this.value, this.count()) as Props;
    const relations = this.object(this.bundles, this.count()) as Bundle['relations'];
    return { id, type, data, relations };
  }

  private bundles(slot: unknown): unknown {
    if (typeof slot !== 'number') return (slot as unknown[])[0];
    const bundles: Bundle[] = [];
    for (let count = slot; count > 0; count--) bundles.push(this.bundle());
    return bundles;
  }

  private edges(slot: unknown): unknown {
    return typeof slot === 'number' ? this.object(this.value, slot) : (slot as unknown[])[0];
  }

  /** An object of `count` keys, each with its value as `value` reads it from its slot. */
  private object(value: (this: FlatItemReader, slot: unknown) => unknown, count: number): object {
    const object: Record<string, unknown> = {};
    for (; count > 0; count--) {
      const key = this.name();
      const read = value.call(this, this.take());
      // An own `__proto__` key (JSON.parse makes them) would set the prototype if assigned.
      if (key === PROTOTYPE_KEY) Object.defineProperty(object, key, { ...OWN, value: read });
      else object[key] = read;
    }
    return object;
  }

  /** A value, as `FlatItemWriter` writes it, from its slot. */
  private value(slot: unknown): unknown {
    if (typeof slot === 'number') return this.list(slot);
    return Array.isArray(slot) ? (slot as unknown[])[0] : slot;
  }
}

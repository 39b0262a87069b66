import { DependentRelation, NodeType } from './item-types';

export type Scalar = string | number | boolean;
/** Property values as both stores keep them: scalars and homogeneous lists of scalars. */
export type PropValue = Scalar | Scalar[];
export type Props = Record<string, PropValue>;

/**
 * The one name no property may have: assigned to an object, it would replace the object's
 * prototype rather than add a field. Field names that imports take from their input (mappings,
 * CSV headers) are checked against it.
 */
export const PROTOTYPE_KEY = '__proto__';

/**
 * An item with its dependent nodes, as the reference system's `Bundle`: the unit of import,
 * storage and change detection. `relations` holds dependents only (descriptions, dates,
 * addresses, access points, unknown properties, maintenance events), never other items.
 */
export interface Bundle {
  id: string;
  type: NodeType;
  data: Props;
  relations: Partial<Record<DependentRelation, Bundle[]>>;
}

import { DependentRelation, NodeType } from './item-types';

export type Scalar = string | number | boolean;
/** Property values as both stores keep them: scalars and homogeneous lists of scalars. */
export type PropValue = Scalar | Scalar[];
export type Props = Record<string, PropValue>;

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

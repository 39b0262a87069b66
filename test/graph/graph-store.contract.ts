import { GraphStore } from '../../src/graph/graph-store';
import { describeItemsContract } from './graph-store-items.contract';
import { describeRecordsAndTransactionsContract } from './graph-store-records.contract';
import { describeSearchBasicsContract } from './graph-store-search-basics.contract';

/**
 * The contract of the `GraphStore` port, run against every adapter. It asserts port semantics only.
 *
 * `open` must give an empty store (its own file, database or wiped graph); `cleanup` closes the store
 * and releases what `open` made.
 */
export function describeGraphStoreContract(
  name: string,
  open: () => Promise<{ store: GraphStore; cleanup(): Promise<void> }>,
): void {
  describe(`GraphStore contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });

    afterEach(async () => {
      await cleanup();
    });

    describeItemsContract(() => store);
    describeSearchBasicsContract(() => store);
    describeRecordsAndTransactionsContract(() => store);
  });
}

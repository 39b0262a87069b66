import { GraphStore } from '../../src/graph/graph-store';
import { describeGraphStoreContract } from './graph-store.contract';

type OpenStore = Parameters<typeof describeGraphStoreContract>[1];

/**
 * The port's contract for `WriteOptions.beforeCommit` (the last check before a commit, which an
 * import's token check uses) and `apart` (a token's write, which must not wait for an import).
 */
export function describeWriteOptionsContract(name: string, open: OpenStore, apartSkipsQueue: boolean): void {
  describe(`GraphStore write options contract: ${name}`, () => {
    let store: GraphStore;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ store, cleanup } = await open());
    });
    afterEach(() => cleanup());

    const note = (id: string) => ({ id, type: 'Note', props: { a: 1 } });
    const stored = (id: string) => store.read((tx) => tx.getRecord(id));

    it('calls beforeCommit after the work, and commits once it resolves', async () => {
      const order: string[] = [];
      await store.write(
        async (tx) => {
          await tx.putRecords([note('kept')]);
          order.push('work');
        },
        { beforeCommit: async () => void order.push('before commit') },
      );
      expect(order).toEqual(['work', 'before commit']);
      expect(await stored('kept')).toEqual(note('kept'));
    });

    it('rolls the write back when beforeCommit rejects, with its error', async () => {
      await expect(
        store.write((tx) => tx.putRecords([note('gone')]), {
          beforeCommit: () => Promise.reject(new Error('token revoked')),
        }),
      ).rejects.toThrow('token revoked');
      expect(await stored('gone')).toBeUndefined();
    });

    it('does not call beforeCommit for a dry run', async () => {
      let called = false;
      await store.write((tx) => tx.putRecords([note('dry')]), {
        commit: false,
        beforeCommit: async () => void (called = true),
      });
      expect(called).toBe(false);
    });

    it(
      apartSkipsQueue
        ? 'commits a write apart while another write is open'
        : 'queues a write apart behind an open write, as any other',
      async () => {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let started!: () => void;
        const writing = new Promise<void>((resolve) => (started = resolve));
        const long = store.write(async (tx) => {
          await tx.putRecords([note('long')]);
          started();
          await held;
        });
        await writing;
        let apartDone = false;
        const apart = store
          .write((tx) => tx.putRecords([note('apart')]), { apart: true })
          .then(() => (apartDone = true));
        if (apartSkipsQueue) {
          // Done while the other write is still open (a remote store may take a while to answer).
          await Promise.race([apart, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        } else {
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        expect(apartDone).toBe(apartSkipsQueue);
        release();
        await Promise.all([long, apart]);
        expect(await stored('apart')).toEqual(note('apart'));
      },
    );
  });
}

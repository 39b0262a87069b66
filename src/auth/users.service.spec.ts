import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { itemHash } from '../items/change-detection';
import { addNamedItem, NamedItemError } from '../named-items/named-item';
import { UsersService } from './users.service';

describe('UsersService and named items', () => {
  let dir: string;
  let store: GraphStore;
  let users: UsersService;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'users-spec-'));
    store = await SqliteGraphStore.open(path.join(dir, 'archive.db'));
    users = new UsersService(store);
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a user as a UserProfile item with identifier, name and its hash', async () => {
    await users.add('mike', 'Mike Bryant');

    const stored = (await store.read((tx) => tx.getItems(['mike']))).get('mike');
    expect(stored?.bundle).toEqual({
      id: 'mike',
      type: 'UserProfile',
      data: { identifier: 'mike', name: 'Mike Bryant' },
      relations: {},
    });
    expect(stored?.hash).toBe(itemHash(stored!.bundle));
  });

  it('names an item after its id when no name is given', async () => {
    await addNamedItem(store, 'CvocVocabulary', 'ehri_terms');
    const stored = (await store.read((tx) => tx.getItems(['ehri_terms']))).get('ehri_terms');
    expect(stored?.bundle.type).toBe('CvocVocabulary');
    expect(stored?.bundle.data).toEqual({ identifier: 'ehri_terms', name: 'ehri_terms' });
  });

  it('knows only users as users', async () => {
    await users.add('mike');
    await addNamedItem(store, 'AuthoritativeSet', 'ehri_cb');
    await expect(users.exists('mike')).resolves.toBe(true);
    await expect(users.exists('ehri_cb')).resolves.toBe(false);
    await expect(users.exists('nobody')).resolves.toBe(false);
  });

  it('refuses an id that any item already has, leaving that item as it was', async () => {
    await addNamedItem(store, 'CvocVocabulary', 'terms', 'Terms');
    await expect(users.add('terms')).rejects.toThrow(NamedItemError);
    const stored = (await store.read((tx) => tx.getItems(['terms']))).get('terms');
    expect(stored?.bundle.type).toBe('CvocVocabulary');
    expect(stored?.bundle.data.name).toBe('Terms');
  });

  it.each(['', 'with space', 'a/b', '-leading', 'x'.repeat(201)])('refuses the id %j', async (id) => {
    await expect(users.add(id)).rejects.toThrow(NamedItemError);
  });
});

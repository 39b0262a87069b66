import { Injectable } from '@nestjs/common';
import { GraphStore } from '../graph/graph-store';
import { addNamedItem } from '../named-items/named-item';

/** Users are `UserProfile` items: the acting user of an import (`X-User`) and a token's owner. */
@Injectable()
export class UsersService {
  constructor(private readonly store: GraphStore) {}

  async add(id: string, name?: string): Promise<void> {
    await addNamedItem(this.store, 'UserProfile', id, name);
  }

  async exists(id: string): Promise<boolean> {
    const types = await this.store.read((tx) => tx.getTypes([id]));
    return types.get(id) === 'UserProfile';
  }
}

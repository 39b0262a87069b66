import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GraphStore } from '../graph/graph-store';
import { SqliteGraphStore } from '../graph/sqlite/sqlite-graph-store';
import { itemHash } from '../items/change-detection';
import { COUNTRY_CODES, countryBundle } from '../items/countries';
import { NamedItemsModule } from './named-items.module';
import { CountriesService } from './countries.service';

const COUNTRY_IDS = COUNTRY_CODES.map((code) => code.toLowerCase());

describe('CountriesService', () => {
  let folder: string;
  let store: GraphStore;

  beforeEach(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'countries-service-'));
    store = await SqliteGraphStore.open(path.join(folder, 'archive.db'));
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const storedCountries = () => store.read((tx) => tx.getItems(COUNTRY_IDS));

  it('creates every country on an empty store', async () => {
    await new CountriesService(store).onModuleInit();

    const countries = await storedCountries();
    expect(countries.size).toBe(249);
    const netherlands = countries.get('nl')!;
    expect(netherlands.bundle).toEqual(countryBundle('nl'));
    expect(netherlands.hash).toBe(itemHash(countryBundle('nl')));
  });

  it('creates only the missing countries and leaves the others as they are', async () => {
    const report = { ...countryBundle('gb'), data: { ...countryBundle('gb').data, situation: 'Test' } };
    await store.write((tx) => tx.putItems([{ bundle: report, hash: itemHash(report) }]));

    await new CountriesService(store).onModuleInit();
    await new CountriesService(store).onModuleInit();

    const countries = await storedCountries();
    expect(countries.size).toBe(249);
    expect(countries.get('gb')!.bundle.data).toEqual({
      identifier: 'gb',
      name: 'United Kingdom',
      situation: 'Test',
    });
  });

  it('runs when the application starts', async () => {
    @Global()
    @Module({ providers: [{ provide: GraphStore, useValue: store }], exports: [GraphStore] })
    class StoreModule {}

    const moduleRef = await Test.createTestingModule({ imports: [StoreModule, NamedItemsModule] }).compile();
    await moduleRef.init();
    try {
      expect(moduleRef.get(CountriesService)).toBeInstanceOf(CountriesService);
      expect((await storedCountries()).size).toBe(249);
    } finally {
      await moduleRef.close();
    }
  });
});

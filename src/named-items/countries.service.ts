import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { GraphStore, ItemGraphReader } from '../graph/graph-store';
import { itemHash } from '../items/change-detection';
import { COUNTRY_CODES, countryBundle } from '../items/countries';

const COUNTRY_IDS = COUNTRY_CODES.map((code) => code.toLowerCase());

/** The store's start-up work: every ISO 3166-1 country exists from the first start. */
@Injectable()
export class CountriesService implements OnModuleInit {
  private readonly logger = new Logger(CountriesService.name);

  constructor(@Inject(GraphStore) private readonly store: GraphStore) {}

  /**
   * Creates the countries that are missing, in one write transaction. Existing countries are left
   * as they are (their reports come from CSV imports). A read comes first so that an ordinary
   * start, with every country there, does not wait for the writer lock.
   */
  async onModuleInit(): Promise<void> {
    try {
      await this.addMissingCountries();
    } catch (error) {
      // A damaged or read-only store still lets the service start, to say it is not ready and why
      // (`StoreHealth`); any other failure stops it.
      const problems = await this.store.problems().catch(() => []);
      if (problems.length === 0) throw error;
      this.logger.error({
        err: error,
        problems,
        msg: 'The countries could not be checked: the store is not ready',
      });
    }
  }

  private async addMissingCountries(): Promise<void> {
    if ((await this.store.read(missingCountryIds)).length === 0) {
      return;
    }
    await this.store.write(async (tx) => {
      const bundles = (await missingCountryIds(tx)).map(countryBundle);
      await tx.putItems(bundles.map((bundle) => ({ bundle, hash: itemHash(bundle) })));
    });
  }
}

async function missingCountryIds(tx: ItemGraphReader): Promise<string[]> {
  const existing = await tx.getHashes(COUNTRY_IDS);
  return COUNTRY_IDS.filter((id) => !existing.has(id));
}

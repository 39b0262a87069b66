import { Module } from '@nestjs/common';
import { CountriesService } from './countries.service';

/** The items the service writes by name: the countries at start (users and scopes: `named-item.ts`). */
@Module({
  providers: [CountriesService],
  exports: [CountriesService],
})
export class NamedItemsModule {}

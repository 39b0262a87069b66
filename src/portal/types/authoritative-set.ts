import type { SchemaObject } from '@nestjs/swagger';
import { Bundle } from '../../items/bundle';
import * as schema from './attribute-schemas';
import { text } from './attribute-values';
import { portalType } from './portal-type';

/** A named set (an authority set, a vocabulary): what it is called. */
export function setAttributes(bundle: Bundle): Record<string, unknown> {
  return {
    identifier: text(bundle.data, 'identifier'),
    name: text(bundle.data, 'name'),
    description: text(bundle.data, 'description'),
  };
}

/** The schema of `setAttributes`, described as `description`. */
export function setSchema(description: string): SchemaObject {
  return schema.attributes(description, {
    identifier: schema.text('Local identifier'),
    name: schema.text('Name'),
    description: schema.text('What it holds'),
  });
}

/** A set of historical agents: served so that its agents' `set` leads somewhere, not searched by default. */
export const AUTHORITATIVE_SET = portalType({
  type: 'AuthoritativeSet',
  searched: false,
  attributes: setAttributes,
  schema: setSchema('A set of historical agents'),
});

import { setAttributes, setSchema } from './authoritative-set';
import { portalType } from './portal-type';

/** A vocabulary: served so that its concepts' `vocabulary` leads somewhere, not searched by default. */
export const CVOC_VOCABULARY = portalType({
  type: 'CvocVocabulary',
  searched: false,
  attributes: setAttributes,
  schema: setSchema('A vocabulary of concepts'),
});

import path from 'node:path';

/** The reference's test files and schemas, beside the checkout (README, "Test fixtures"). */
export const FIXTURES = path.resolve(__dirname, '..', '..', '..', 'shared', 'fixtures');
/** The reference system's own test files and field mappings. */
export const EHRI_FIXTURES = path.join(FIXTURES, 'ehri');

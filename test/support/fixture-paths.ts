import path from 'node:path';

/** The reference's test files and schemas (README, "Test fixtures"; `fixtures/README.md` says where each comes from). */
export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
/** The reference system's own test files and field mappings. */
export const EHRI_FIXTURES = path.join(FIXTURES, 'ehri');

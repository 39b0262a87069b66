/** The error conditions of OAI-PMH 2.0 (§3.6), answered with HTTP 200 and an `error` element. */
export const OAI_ERROR_CODES = [
  'badArgument',
  'badResumptionToken',
  'badVerb',
  'cannotDisseminateFormat',
  'idDoesNotExist',
  'noRecordsMatch',
  'noMetadataFormats',
  'noSetHierarchy',
] as const;
export type OaiErrorCode = (typeof OAI_ERROR_CODES)[number];

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OaiError';
  }

  /**
   * Whether the answer may repeat the request's arguments: not after badVerb or badArgument,
   * whose arguments may be anything (§3.2).
   */
  get echoesArguments(): boolean {
    return this.code !== 'badVerb' && this.code !== 'badArgument';
  }
}

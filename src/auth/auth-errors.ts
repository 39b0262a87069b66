/**
 * A request to the auth services that cannot be carried out as asked (unknown user, duplicate id,
 * unknown token). The CLI prints its message; it is never a server fault.
 */
export class AuthInputError extends Error {
  override readonly name = 'AuthInputError';
}

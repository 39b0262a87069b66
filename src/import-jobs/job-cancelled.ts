/** Why a job stopped before its end: a cancel request, or a shutdown (its message says which). */
export class JobCancelled extends Error {
  override readonly name = 'JobCancelled';
}

/**
 * A source that answered badly: unreachable, an HTTP error, or a file that is not in the source's
 * format. `transient` errors (network, 5xx, 429) are retried with backoff; the others fail the run at
 * once. The message names the address and, for a bad file, where in it.
 */
export class FeedError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}

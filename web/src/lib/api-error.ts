/**
 * The text to show for a failed call: the server's `error` field, else the message of a thrown
 * Error, else the spec's fallback (e.g. "Login failed").
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null) {
    if ('data' in error) {
      const data = (error as { data: unknown }).data;
      if (typeof data === 'object' && data !== null && 'error' in data) {
        const text = (data as { error: unknown }).error;
        if (typeof text === 'string' && text.trim() !== '') return text;
      }
    }
    if (error instanceof Error && error.message) return error.message;
    // RTK's SerializedError (a thrown exception inside a query) carries only name and message.
    if (!('status' in error) && 'message' in error) {
      const text = (error as { message: unknown }).message;
      if (typeof text === 'string' && text !== '') return text;
    }
  }
  return fallback;
}

/** The HTTP status of a failed call, if there was an answer. */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}

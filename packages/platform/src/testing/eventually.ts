/**
 * Retries an assertion until it passes or the time is up, for effects that arrive through the bus.
 * The last failure is what the test reports.
 */
export async function eventually(
  assertion: () => Promise<void> | void,
  timeoutMs = 3000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

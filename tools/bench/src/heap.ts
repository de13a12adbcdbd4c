/** The heap in use after two full collections: what the objects alive at that moment take. Needs `node --expose-gc`. */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

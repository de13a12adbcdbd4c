/** The heap in use after two full collections: what the objects alive at that moment take. Needs `node --expose-gc`. */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The heap in use and the memory outside it (Buffers, typed arrays) after two full collections. Needs `node --expose-gc`. */
export function memoryAfterGc(): { heapUsed: number; external: number } {
  const heapUsed = heapAfterGc();
  return { heapUsed, external: process.memoryUsage().external };
}

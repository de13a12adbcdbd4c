/**
 * Freezes a decoded message and everything in it. Bytes fields (Uint8Array) cannot be frozen and
 * stay writable; none of Kickstand's topics has one.
 */
export function deepFreeze(value: object): void {
  Object.freeze(value);
  for (const field of Object.values(value)) {
    if (typeof field === 'object' && field !== null && !ArrayBuffer.isView(field) && !Object.isFrozen(field)) {
      deepFreeze(field as object);
    }
  }
}

/** Ids of the shapes Kick and the bus use, made from a seeded random source (tests of id-bits.ts and its users). */

/** Crockford base32, as ULIDs write it. */
export const ulidAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Lowercase hex, as UUIDs here are written. */
export const hexAlphabet = '0123456789abcdef';

/** A ULID (its first character 0–7: 128 bits). */
export function randomUlid(random: () => number): string {
  let id = String(Math.floor(random() * 8));
  for (let i = 1; i < 26; i++) id += ulidAlphabet[Math.floor(random() * 32)];
  return id;
}

/** A lowercase UUID, 8-4-4-4-12. */
export function randomUuid(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += hexAlphabet[Math.floor(random() * 16)];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

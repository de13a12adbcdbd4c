import type { Filter, Update } from './store';

const updateOperators = new Set(['$set', '$unset', '$inc', '$max', '$push', '$pull', '$setOnInsert']);

/** Rejects updates outside the port's subset, so both adapters fail the same way instead of drifting apart. */
export function checkUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new Error('an update needs at least one operator');
  for (const key of keys) {
    if (!updateOperators.has(key)) throw new Error(`unsupported update operator ${key}`);
    if (!isPlainObject((update as Record<string, unknown>)[key])) throw new Error(`${key} needs an object`);
  }
}

/**
 * The document an upsert starts from when nothing matched: the filter's equality conditions (top
 * level and inside $and), dot paths expanded, as MongoDB builds it.
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const seed: Record<string, unknown> = {};
  addEqualities(seed, filter);
  return seed;
}

function addEqualities(seed: Record<string, unknown>, filter: Filter): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) if (isPlainObject(clause)) addEqualities(seed, clause);
      continue;
    }
    if (key.startsWith('$') || value instanceof RegExp) continue;
    if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
      if ('$eq' in value) setPath(seed, key, structuredClone(value.$eq));
      continue;
    }
    setPath(seed, key, structuredClone(value));
  }
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop();
  if (last === undefined) return;
  let node = target;
  for (const part of parts) {
    const next = node[part];
    if (isPlainObject(next)) {
      node = next;
    } else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[last] = value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp)
  );
}

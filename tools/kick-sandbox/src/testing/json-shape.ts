/**
 * Compares the shape of a JSON value with a documented example: the same keys at every level and
 * the same JSON types (integers where the example has integers). Values do not matter.
 *
 * Documented flexibility is given by path (`$.data[].stream.url`, array items as `[]`):
 * - `optional`: the key may be absent; when present it must match the given example value (or
 *   the example's own value at that path);
 * - `nullable`: the value may be null; when not null it must match the given example value (or
 *   the example's own value).
 * In an example array, each actual item is compared with all the example's items merged; a key
 * only some example items have is optional (e.g. a badge's `count`).
 */
export interface ShapeRules {
  optional?: Record<string, unknown>;
  nullable?: Record<string, unknown>;
}

const typeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function mergeItems(items: readonly unknown[]): { merged: unknown; partialKeys: Set<string> } {
  const objects = items.filter(isObject);
  if (objects.length !== items.length || objects.length === 0) return { merged: items[0], partialKeys: new Set() };
  const merged: Record<string, unknown> = {};
  const counts = new Map<string, number>();
  for (const item of objects) {
    for (const [key, value] of Object.entries(item)) {
      if (!(key in merged) || merged[key] === null) merged[key] = value;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const partialKeys = new Set([...counts].filter(([, count]) => count < objects.length).map(([key]) => key));
  return { merged, partialKeys };
}

export function shapeDifferences(actual: unknown, example: unknown, rules: ShapeRules = {}, path = '$'): string[] {
  const nullableRule = rules.nullable && path in rules.nullable;
  if (actual === null && (example === null || nullableRule)) return [];
  if (example === null && actual !== null) {
    if (!nullableRule) return [`${path}: expected null, got ${typeOf(actual)}`];
    return shapeDifferences(actual, rules.nullable?.[path], rules, path);
  }
  const expectedType = typeOf(example);
  const actualType = typeOf(actual);
  // an integer is a number too, but a documented integer must stay an integer
  const isTypeOk = expectedType === actualType || (expectedType === 'number' && actualType === 'integer');
  if (!isTypeOk) return [`${path}: expected ${expectedType}, got ${actualType}`];

  if (Array.isArray(example) && Array.isArray(actual)) {
    if (example.length === 0) return [];
    const { merged, partialKeys } = mergeItems(example);
    const itemPath = `${path}[]`;
    const itemRules: ShapeRules = {
      ...rules,
      optional: {
        ...rules.optional,
        ...Object.fromEntries([...partialKeys].map((key) => [`${itemPath}.${key}`, undefined])),
      },
    };
    return actual.flatMap((item) => shapeDifferences(item, merged, itemRules, itemPath));
  }

  if (isObject(example) && isObject(actual)) {
    const differences: string[] = [];
    const optional = rules.optional ?? {};
    for (const key of Object.keys(example)) {
      const keyPath = `${path}.${key}`;
      if (!(key in actual)) {
        if (!(keyPath in optional)) differences.push(`${keyPath}: missing`);
        continue;
      }
      const expected = optional[keyPath] !== undefined ? optional[keyPath] : example[key];
      differences.push(...shapeDifferences(actual[key], expected, rules, keyPath));
    }
    for (const key of Object.keys(actual)) {
      if (key in example) continue;
      const keyPath = `${path}.${key}`;
      if (!(keyPath in optional)) {
        differences.push(`${keyPath}: not in kick-api.md's example`);
        continue;
      }
      differences.push(...shapeDifferences(actual[key], optional[keyPath], rules, keyPath));
    }
    return differences;
  }
  return [];
}

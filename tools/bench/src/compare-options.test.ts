import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CompareUsageError, parseCompareOptions } from './compare-options';

let builtCheckout: string;

beforeAll(() => {
  builtCheckout = mkdtempSync(path.join(tmpdir(), 'kickstand-other-'));
  mkdirSync(path.join(builtCheckout, 'apps', 'single-machine', 'dist'), { recursive: true });
  writeFileSync(path.join(builtCheckout, 'apps', 'single-machine', 'dist', 'main.js'), '');
});

afterAll(() => rmSync(builtCheckout, { recursive: true, force: true }));

describe('bench:compare options', () => {
  test('when another checkout and a setting are given, then both make the other side, and the bench options follow --', () => {
    const options = parseCompareOptions([
      '--pairs',
      '2',
      '--other-root',
      builtCheckout,
      '--other-env',
      'HEAP_GROWING_PERCENT=10',
      '--',
      '--phases',
      'latency',
      '--duration',
      '30',
    ]);

    expect(options).toEqual({
      pairs: 2,
      otherRoot: builtCheckout,
      otherEnv: { HEAP_GROWING_PERCENT: '10' },
      labels: { other: `${builtCheckout} HEAP_GROWING_PERCENT=10`, self: 'this checkout' },
      benchArgs: ['--phases', 'latency', '--duration', '30'],
    });
  });

  test('when labels are given, then they name the sides; three pairs by default', () => {
    const options = parseCompareOptions([
      '--other-env',
      'FRONT_DOOR=inline',
      '--other-label',
      'one thread',
      '--this-label',
      'front door',
    ]);

    expect(options.pairs).toBe(3);
    expect(options.labels).toEqual({ other: 'one thread', self: 'front door' });
    expect(options.benchArgs).toEqual([]);
  });

  test.each([
    [['--other-env', 'FRONT_DOOR=inline', '--pairs', '0'], '--pairs must be a whole number from 1 to 20, got "0"'],
    [['--other-env', 'FRONT_DOOR=inline', '--pairs', '2.5'], '--pairs must be a whole number from 1 to 20, got "2.5"'],
    [['--other-env', 'PATH=/tmp'], '--other-env takes NAME=VALUE with NAME one of FRONT_DOOR, HEAP_GROWING_PERCENT'],
    [['--other-env', 'FRONT_DOOR'], '--other-env takes NAME=VALUE'],
    [
      ['--other-root', '/nowhere'],
      '/nowhere is not a built checkout of Kickstand (no apps/single-machine/dist/main.js)',
    ],
    [['--pairs', '2'], 'nothing to compare with: give --other-root, --other-env or both'],
    [['--other-env', 'FRONT_DOOR=inline', '--', '--out', 'x.json'], "--out is the comparison's own"],
    [['--other-env', 'FRONT_DOOR=inline', '--runs', '2'], "Unknown option '--runs'"],
  ])('when given %j, then it is refused with what is wrong and the usage', (argv, message) => {
    expect(() => parseCompareOptions(argv)).toThrow(CompareUsageError);
    expect(() => parseCompareOptions(argv)).toThrow(message);
    expect(() => parseCompareOptions(argv)).toThrow('npm run bench:compare -- [--pairs N]');
  });
});
